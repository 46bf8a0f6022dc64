/**
 * End to end with no API key: the built `code-agent run` on the real default local model (fetched
 * by `npm run setup` into the user cache), the real sandbox. One of the example requests, small
 * max_tokens. It finds the model the way a fresh user's `code-agent run` does: nothing in the
 * config names it, it is in the user cache ($HOME/.cache/code-agent/models). (`llm.model_path`
 * names the same model in the test/llm and test/cli tests.)
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
  artifacts: { name: string; path: string; bytes: number }[];
}

/** `code-agent run --json <requirement>` in a fresh folder (also its HOME), the model only in $HOME/.cache/code-agent/models. */
async function runLocal(requirement: string): Promise<{ code: number | null; json: RunJson; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-local-'));
  mkdirSync(join(dir, '.cache', 'code-agent', 'models'), { recursive: true });
  symlinkSync(modelPath, join(dir, '.cache', 'code-agent', 'models', TEST_MODEL_FILE));
  writeFileSync(
    join(dir, 'config.yaml'),
    [
      'llm:',
      '  provider: auto',
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
  // one request, the costliest of the suite (a minute or more of inference on 2 cores): the model
  // found as a fresh user's is, code written, run in the sandbox, its picture returned
  it('plots sin(x) and cos(x) with a legend and a title, returning the picture', async () => {
    const r = await runLocal('plot sin(x) and cos(x) with numpy and matplotlib, with a legend and a title');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.success).toBe(true);
    expect(r.stderr).toContain('[Agent] Generating code…');
    expect(r.json.code).toMatch(/legend/);
    expect(r.json.code).toMatch(/title/);
    const png = r.json.artifacts.find((a) => a.name.endsWith('.png'));
    expect(png, JSON.stringify(r.json.artifacts)).toBeDefined();
    expect(png!.bytes).toBeGreaterThan(1000);
    expect(existsSync(png!.path)).toBe(true);
  }, 300_000);
});
