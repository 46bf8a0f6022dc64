/** Freeing the real model after a test file. */
import { disposeSharedModels } from '../../src/llm/local-runtime.js';

/** How long a test file's last hook waits for the shared model to be freed, in ms. */
export const FREE_MODELS_WAIT_MS = 60_000;

/**
 * Frees the models this test process loaded; stops waiting after {@link FREE_MODELS_WAIT_MS} (the
 * worker process ends with the file, and the OS frees what is left). Under a full parallel run on
 * 2 cores, freeing once did not finish within 300 s, while every test of the file had passed.
 */
export async function freeSharedModels(): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), FREE_MODELS_WAIT_MS)));
  const outcome = await Promise.race([disposeSharedModels().then(() => 'freed' as const), gaveUp]);
  clearTimeout(timer);
  if (outcome === 'late') process.stderr.write(`note: the shared model was not freed within ${FREE_MODELS_WAIT_MS} ms; the worker's exit frees it\n`);
}
