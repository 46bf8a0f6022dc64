/** Which node-llama-cpp binary packages `npm run setup` keeps (scripts/llama-binaries.mjs). */
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module without types, run by Node before anything is built
import { unusableBinaries, wantedGpu } from '../../scripts/llama-binaries.mjs';

const installed = ['linux-arm64', 'linux-armv7l', 'linux-x64', 'linux-x64-cuda', 'linux-x64-cuda-ext', 'linux-x64-vulkan'];
const x64 = (gpu: string[]) => ({ platform: 'linux', arch: 'x64', gpu });

describe('node-llama-cpp binaries kept by setup', () => {
  it('keeps only the CPU build of this platform on a machine without a GPU', () => {
    expect(unusableBinaries(installed, x64([]))).toEqual(installed.filter((n) => n !== 'linux-x64'));
  });

  it('keeps the CUDA builds (both packages) with gpu cuda, and Vulkan with gpu vulkan', () => {
    expect(unusableBinaries(installed, x64(['cuda']))).toEqual(['linux-arm64', 'linux-armv7l', 'linux-x64-vulkan']);
    expect(unusableBinaries(installed, x64(['vulkan']))).toEqual(['linux-arm64', 'linux-armv7l', 'linux-x64-cuda', 'linux-x64-cuda-ext']);
  });

  it('keeps the arm64 build on arm64 and drops the x64 ones', () => {
    expect(unusableBinaries(installed, { platform: 'linux', arch: 'arm64', gpu: [] })).toEqual(installed.filter((n) => n !== 'linux-arm64'));
  });

  it('reads --gpu and CODE_AGENT_GPU, else keeps CUDA only where an NVIDIA driver is loaded', () => {
    const none = () => false;
    expect(wantedGpu({ argv: [], env: {}, exists: none })).toEqual([]);
    expect(wantedGpu({ argv: [], env: {}, exists: (p: string) => p === '/proc/driver/nvidia/version' })).toEqual(['cuda']);
    expect(wantedGpu({ argv: ['--gpu'], env: {}, exists: none })).toEqual(['cuda', 'vulkan']);
    expect(wantedGpu({ argv: ['--gpu=vulkan'], env: {}, exists: none })).toEqual(['vulkan']);
    expect(wantedGpu({ argv: [], env: { CODE_AGENT_GPU: 'cuda' }, exists: none })).toEqual(['cuda']);
    expect(wantedGpu({ argv: [], env: { CODE_AGENT_GPU: '0' }, exists: () => true })).toEqual([]);
  });
});
