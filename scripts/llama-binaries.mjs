// Which of node-llama-cpp's prebuilt binary packages (node_modules/@node-llama-cpp/<platform>-<arch>[-gpu])
// this machine can use. npm installs every optional binary whose os/cpu match, which on x64 Linux
// means ~620 MB of CUDA and Vulkan builds a machine without a GPU never loads (node-llama-cpp then
// falls back to its CPU build, which is always kept). Used by scripts/setup.mjs.
import { existsSync } from 'node:fs';

/** The GPU builds wanted: from `--gpu[=cuda|vulkan|all]` / `$CODE_AGENT_GPU`, else detected (an NVIDIA driver → cuda). */
export function wantedGpu({ argv = process.argv.slice(2), env = process.env, exists = existsSync } = {}) {
  const flag = argv.find((a) => a === '--gpu' || a.startsWith('--gpu='));
  const value = flag ? (flag.split('=')[1] ?? 'all') : env.CODE_AGENT_GPU;
  if (value !== undefined && value !== '') {
    if (['0', 'no', 'none', 'false'].includes(value)) return [];
    if (['1', 'yes', 'true', 'all'].includes(value)) return ['cuda', 'vulkan'];
    return value.split(',').map((v) => v.trim());
  }
  return exists('/proc/driver/nvidia/version') ? ['cuda'] : [];
}

/**
 * The binary packages (names under @node-llama-cpp/) to remove: those for another platform or
 * architecture, and GPU builds not in `gpu`.
 * @param {string[]} names installed package names, e.g. ['linux-x64', 'linux-x64-cuda', 'linux-arm64']
 * @param {{platform: string, arch: string, gpu: string[]}} machine e.g. {platform: 'linux', arch: 'x64', gpu: []}
 */
export function unusableBinaries(names, { platform, arch, gpu }) {
  const os = platform === 'darwin' ? 'mac' : platform === 'win32' ? 'win' : platform;
  const own = `${os}-${arch}`;
  return names.filter((name) => {
    if (name === own) return false;
    if (!name.startsWith(`${own}-`)) return /^(linux|mac|win)-/.test(name);
    const variant = name.slice(own.length + 1); // cuda, cuda-ext, vulkan, metal…
    return !gpu.some((g) => variant === g || variant.startsWith(`${g}-`));
  });
}
