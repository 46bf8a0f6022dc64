/**
 * End to end with no API key: the built `code-agent run` on the real default local model (fetched
 * by `npm run setup` into the user cache), the real sandbox. Two of the example requests, small
 * max_tokens. The first finds the model the way a fresh user's `code-agent run` does: nothing in
 * the config names it, it is in the user cache ($HOME/.cache/code-agent/models).
 */
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from './helpers/cli.js';
import { TEST_MODEL_FILE, testModelPath, testThreads } from '../scripts/test-model.js';

let modelPath: string;

beforeAll(() => {
  requireBuiltCli();
  modelPath = testModelPath();
});

interface RunJson {
  success: boolean;
  attempts: number;
  code: string;
  stdout: string;
  artifacts: { name: string; path: string; bytes: number }[];
}

/**
 * `code-agent run --json <requirement>` in a fresh folder (also its HOME). `from: 'config'`: the
 * config names the model file; `from: 'user-cache'`: the model is only in $HOME/.cache/code-agent/models.
 */
async function runLocal(requirement: string, from: 'config' | 'user-cache'): Promise<{ code: number | null; json: RunJson; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-local-'));
  if (from === 'user-cache') {
    mkdirSync(join(dir, '.cache', 'code-agent', 'models'), { recursive: true });
    symlinkSync(modelPath, join(dir, '.cache', 'code-agent', 'models', TEST_MODEL_FILE));
  }
  writeFileSync(
    join(dir, 'config.yaml'),
    [
      'llm:',
      '  provider: auto',
      ...(from === 'config' ? [`  model_path: ${modelPath}`] : []),
      '  context_size: 2048',
      `  threads: ${testThreads()}`,
      '  max_tokens: 512',
      'agent:',
      '  max_retries: 1',
      'sandbox:',
      '  timeout_s: 20',
      '  cpu_time_s: 20',
      '',
    ].join('\n'),
  );
  const { code, stdout, stderr } = await runCli(['run', '--json', requirement], dir);
  let json: RunJson;
  try {
    json = JSON.parse(stdout) as RunJson;
  } catch {
    throw new Error(`no JSON on stdout (exit ${code}):\n${stdout}\n--- stderr ---\n${stderr}`);
  }
  return { code, json, stderr };
}

describe('code-agent run with the local model (no API key)', () => {
  it('generates 100 random numbers and prints their mean and standard deviation', async () => {
    const r = await runLocal('generate 100 random numbers and print their mean and standard deviation', 'user-cache');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.success).toBe(true);
    expect(r.json.stdout).toMatch(/mean/i);
    expect(r.json.stdout).toMatch(/\d\.\d/);
    expect(r.stderr).toContain('[Agent] Generating code…');
  }, 300_000);

  it('plots sin(x) and cos(x) with a legend and a title, returning the picture', async () => {
    const r = await runLocal('plot sin(x) and cos(x) with numpy and matplotlib, with a legend and a title', 'config');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.success).toBe(true);
    expect(r.json.code).toMatch(/legend/);
    expect(r.json.code).toMatch(/title/);
    const png = r.json.artifacts.find((a) => a.name.endsWith('.png'));
    expect(png, JSON.stringify(r.json.artifacts)).toBeDefined();
    expect(png!.bytes).toBeGreaterThan(1000);
    expect(existsSync(png!.path)).toBe(true);
  }, 300_000);
});
