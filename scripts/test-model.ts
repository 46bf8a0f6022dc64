/**
 * Where the local-model tests and benchmarks find the model fetched by scripts/fetch-test-model.sh.
 * A missing model is an error that says how to get it (tests fail, they do not skip).
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** File name of the default test model (Qwen2.5 Coder 0.5B Instruct, Q4_K_M). */
export const TEST_MODEL_FILE = 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf';

/** The models dir of the fetch script: `$CODE_AGENT_CACHE/models` (default ~/.cache/code-agent/models). */
export function testModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.CODE_AGENT_CACHE || join(homedir(), '.cache', 'code-agent'), 'models');
}

/**
 * The test model's path: `$CODE_AGENT_TEST_MODEL` when set, else the fetch script's output.
 * @throws {Error} saying to run scripts/fetch-test-model.sh when the file is missing.
 */
export function testModelPath(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.CODE_AGENT_TEST_MODEL || join(testModelsDir(env), TEST_MODEL_FILE);
  if (!existsSync(path)) {
    throw new Error(`the local test model is missing at ${path}: run scripts/fetch-test-model.sh first`);
  }
  return path;
}

/** CPU threads for test runs: `$CODE_AGENT_TEST_THREADS`, default 1 (tests share the machine). */
export function testThreads(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.CODE_AGENT_TEST_THREADS ?? 1) || 1;
}
