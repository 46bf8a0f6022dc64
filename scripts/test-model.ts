/**
 * Where the local-model tests and benchmarks find their model: the default local model (the one
 * `npm run setup` fetches and users get), in the user cache. A missing model is an error that says
 * how to get it (tests fail, they do not skip).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LOCAL_MODEL, knownModel, userModelsDir } from '../src/llm/model-catalog.js';

/** File name of the test model (the default local model, Qwen2.5 Coder 1.5B Instruct, Q4_K_M). */
export const TEST_MODEL_FILE = knownModel(DEFAULT_LOCAL_MODEL).file;

/** The models dir of `code-agent model fetch`: the user cache's `models/`. */
export function testModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return userModelsDir(env);
}

/**
 * The test model's path: `$CODE_AGENT_TEST_MODEL` when set, else the default model in the user cache.
 * @throws {Error} saying to run scripts/fetch-test-model.sh when the file is missing.
 */
export function testModelPath(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.CODE_AGENT_TEST_MODEL || join(testModelsDir(env), TEST_MODEL_FILE);
  if (!existsSync(path)) {
    throw new Error(`the local test model is missing at ${path}: run scripts/fetch-test-model.sh (or npm run setup) first`);
  }
  return path;
}

/** CPU threads for test runs: `$CODE_AGENT_TEST_THREADS`, default 1 (tests share the machine). */
export function testThreads(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.CODE_AGENT_TEST_THREADS ?? 1) || 1;
}
