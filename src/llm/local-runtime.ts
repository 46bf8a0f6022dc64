/**
 * Loads llama.cpp and a GGUF model once per process: every local provider for the same file
 * shares the weights (each provider keeps its own context).
 */
import { getLlama, LlamaLogLevel, type Llama, type LlamaModel } from 'node-llama-cpp';
import { resolve } from 'node:path';
import { LlmError } from './types.js';
import { availableParallelism } from 'node:os';

let llamaPromise: Promise<Llama> | undefined;
const models = new Map<string, Promise<LlamaModel>>();

/** The process's llama.cpp binding (prebuilt binaries; GPU when one is usable). */
export function sharedLlama(): Promise<Llama> {
  llamaPromise ??= getLlama({ logLevel: LlamaLogLevel.error }).catch((err: unknown) => {
    llamaPromise = undefined;
    throw new LlmError(`llama.cpp could not be started for the local model: ${(err as Error).message}`, undefined, {
      cause: err,
    });
  });
  return llamaPromise;
}

/**
 * The loaded model for a GGUF file, loading it on first use.
 * @throws {LlmError} naming the file when it cannot be loaded.
 */
export function sharedModel(modelPath: string): Promise<LlamaModel> {
  const path = resolve(modelPath);
  let model = models.get(path);
  if (!model) {
    model = sharedLlama()
      .then((llama) => llama.loadModel({ modelPath: path }))
      .catch((err: unknown) => {
        models.delete(path);
        if (err instanceof LlmError) throw err;
        throw new LlmError(`the local model ${path} could not be loaded: ${(err as Error).message}`, undefined, {
          cause: err,
        });
      });
    models.set(path, model);
  }
  return model;
}

/** Unloads every shared model (tests, shutdown). */
export async function disposeSharedModels(): Promise<void> {
  const loaded = [...models.values()];
  models.clear();
  await Promise.all(loaded.map((m) => m.then((x) => x.dispose()).catch(() => undefined)));
}

/**
 * CPU threads when none are configured: all cores but one, at least 1. llama.cpp's threads wait
 * for each other at every step, so when the sandbox, the bot or anything else takes a core, a
 * thread per core stalls them all (seen here: a 2-core machine under load went from 44 s with one
 * thread to more than 12 minutes with two).
 */
export function defaultThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}
