/**
 * Which GGUF file the local provider loads, from `llm.*`: `model_path`, else a model URI in
 * `model` (downloaded once into `models_dir`), else a `.gguf` already in `models_dir`, else the
 * default model in the user cache (`~/.cache/code-agent/models`, put there by `npm run setup`).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import { ConfigError } from '../config/load.js';
import { cachedDefaultModel } from './model-catalog.js';
import { findCachedGguf, isModelUri, pullModel, type DownloadProgress } from './model-files.js';

/** Options of {@link resolveLocalModel}. */
export interface ResolveLocalOptions {
  /** Download a model URI that is not cached yet. Default true. */
  download?: boolean;
  /** Download progress (default: none). */
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
  /** Where the user cache is looked up (`CODE_AGENT_CACHE`, `XDG_CACHE_HOME`, `HOME`). Default process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The GGUF file to load, or undefined when the config names none, `models_dir` has none and the
 * default model is not in the user cache.
 * @throws {ConfigError} when `model_path` names a missing file.
 * @throws {ModelFileError} when a model URI cannot be downloaded (the message says where to put the file).
 */
export async function resolveLocalModel(
  llm: Config['llm'],
  options: ResolveLocalOptions = {},
): Promise<string | undefined> {
  if (llm.model_path) {
    const path = resolve(llm.model_path);
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new ConfigError(`llm.model_path: no model file at ${path} (a .gguf file is expected)`);
    }
    return path;
  }
  if (llm.model && isModelUri(llm.model)) {
    if (options.download === false) return undefined;
    return pullModel(llm.model, {
      directory: llm.models_dir,
      onProgress: options.onProgress,
      connectTimeoutMs: llm.download_timeout_s * 1000,
      signal: options.signal,
    });
  }
  return (await findCachedGguf(llm.models_dir)) ?? cachedDefaultModel(options.env);
}
