/**
 * Where local GGUF models live: a model URI (`hf:<owner>/<repo>/<file>.gguf` or an https URL) is
 * kept in the models dir under a fixed file name; a cached model is any `.gguf` in that dir.
 * Downloads go through node-llama-cpp's own downloader (resume, split files, progress).
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { LlmError } from './types.js';

/** How long finding the remote file may take before we call the network unreachable, in ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/** Progress of a download, in bytes. */
export interface DownloadProgress {
  totalSize: number;
  downloadedSize: number;
}

/** Options of {@link pullModel}. */
export interface PullOptions {
  /** The models dir (created when missing). */
  directory: string;
  /** Called as bytes arrive. */
  onProgress?: (progress: DownloadProgress) => void;
  /** Gives up when the remote file cannot be found within this time. Default {@link DEFAULT_CONNECT_TIMEOUT_MS}. */
  connectTimeoutMs?: number;
  signal?: AbortSignal;
}

/** A model file cannot be had; the message names the file to get and where to put it. */
export class ModelFileError extends LlmError {
  override name = 'ModelFileError';
}

/** True for what {@link pullModel} can download: `hf:` URIs and http(s) URLs. */
export function isModelUri(value: string): boolean {
  return /^(hf:|huggingface:|https?:\/\/)/i.test(value);
}

/**
 * The file name a model URI is kept under in the models dir, or undefined when the URI does not
 * name a file (e.g. `hf:owner/repo:Q4_K_M`; then node-llama-cpp picks the name).
 * `hf:Qwen/Repo-GGUF/model-q4_k_m.gguf` → `hf_Qwen_model-q4_k_m.gguf` (node-llama-cpp's own scheme).
 */
export function cachedFileName(uri: string): string | undefined {
  const hf = /^(?:hf|huggingface):([^/]+)\/[^/]+\/(.+\.gguf)$/i.exec(uri);
  if (hf) return `hf_${hf[1]}_${basename(hf[2]!)}`;
  if (/^https?:\/\//i.test(uri)) {
    const name = basename(new URL(uri).pathname);
    return name.toLowerCase().endsWith('.gguf') ? name : undefined;
  }
  return undefined;
}

/** A browser-downloadable URL for a model URI (for the offline message). */
export function downloadUrlOf(uri: string): string {
  const hf = /^(?:hf|huggingface):([^/]+)\/([^/]+)\/(.+)$/i.exec(uri);
  if (hf) return `https://huggingface.co/${hf[1]}/${hf[2]}/resolve/main/${hf[3]}`;
  return uri;
}

/** The path of an already downloaded model URI in `directory`, or undefined. Never touches the network. */
export async function findDownloadedModel(uri: string, directory: string): Promise<string | undefined> {
  try {
    const { resolveModelFile } = await import('node-llama-cpp');
    return await resolveModelFile(uri, { directory, download: false, cli: false, fileName: cachedFileName(uri) });
  } catch {
    return undefined;
  }
}

/**
 * The first `.gguf` file (by name) directly in `directory`, or undefined when there is none.
 * Used by `llm.provider: auto` to find a cached local model.
 */
export async function findCachedGguf(directory: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return undefined;
  }
  for (const name of names.filter((n) => n.toLowerCase().endsWith('.gguf')).sort()) {
    const path = join(directory, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() && info.size > 0) return resolve(path);
  }
  return undefined;
}

/**
 * Downloads a model URI into `directory` once (a cached copy is returned at once).
 * @returns the absolute path of the GGUF file.
 * @throws {ModelFileError} when it cannot be downloaded; the message names the file to get and
 *   where to put it so that the next run finds it offline.
 */
export async function pullModel(uri: string, options: PullOptions): Promise<string> {
  const directory = resolve(options.directory);
  const found = await findDownloadedModel(uri, directory);
  if (found) return found;
  const fileName = cachedFileName(uri);
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  try {
    await probeNetwork(uri, connectTimeoutMs, options.signal);
    const { createModelDownloader } = await import('node-llama-cpp');
    const downloader = await withTimeout(
      createModelDownloader({
        modelUri: uri,
        dirPath: directory,
        fileName,
        showCliProgress: false,
        skipExisting: true,
        onProgress: options.onProgress,
      }),
      connectTimeoutMs,
      options.signal,
    );
    await downloader.download({ signal: options.signal });
    return downloader.entrypointFilePath;
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ModelFileError(offlineMessage(uri, directory, fileName, err), undefined, { cause: err });
  }
}

/** The message for a model that could not be downloaded. */
export function offlineMessage(uri: string, directory: string, fileName: string | undefined, err: unknown): string {
  const target = fileName ? join(directory, fileName) : `${directory}/ (any name ending in .gguf)`;
  return [
    `Could not download the model ${uri}: ${(err as Error)?.message ?? String(err)}`,
    `Without network access, get the file yourself:`,
    `  ${downloadUrlOf(uri)}`,
    `and put it at:`,
    `  ${target}`,
    `or point llm.model_path at a .gguf file you already have.`,
  ].join('\n');
}

/**
 * Fails fast (DNS, refused, timeout) before node-llama-cpp's downloader, which retries an
 * unreachable host for minutes. Any HTTP answer counts as reachable.
 */
async function probeNetwork(uri: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const url = downloadUrlOf(uri);
  const target = /^https?:\/\//i.test(url) ? url : 'https://huggingface.co/';
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(target, {
      method: 'HEAD',
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    await res.body?.cancel();
  } catch (err) {
    if (signal?.aborted) throw err;
    if (timeout.aborted) throw new Error(`no answer from the network within ${Math.round(timeoutMs / 1000)} s`);
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`${new URL(target).host} is unreachable (${cause?.code ?? cause?.message ?? (err as Error).message})`);
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the network within ${Math.round(ms / 1000)} s`)), ms);
    onAbort = () => reject(signal?.reason ?? new Error('cancelled'));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
