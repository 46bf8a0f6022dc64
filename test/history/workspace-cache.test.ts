/**
 * This machine's cache of workspace contents: restores read from the store only what it lacks,
 * the store stays the truth (the manifest, a replaced file), the disk tier serves another process
 * and stays within its bound, and a folder others could write is not used. The real SQLite store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { WorkspaceCache } from '../../src/history/workspace-cache.js';
import { cacheStored, readWorkspaceCached } from '../../src/history/workspace-restore.js';
import type { NewWorkspaceFile } from '../../src/history/workspace.js';

const at = new Date().toISOString();
const given = (name: string, content: Buffer | string): NewWorkspaceFile => ({ name, content: Buffer.from(content), origin: { kind: 'input', turn: 1, at } });
const hashOf = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let dir: string;
let store: KeyvHistoryStore;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ws-cache-'));
  store = await KeyvHistoryStore.open(`sqlite://${join(dir, 'history.sqlite')}`);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('restoring through the cache', () => {
  it('reads from the store only what the cache lacks; the store stays the truth', async () => {
    const cache = new WorkspaceCache({ dir: join(dir, 'c1') });
    const a = randomBytes(1000);
    const put = await store.putWorkspaceFiles('conv', 'r1', [given('a.bin', a), given('b.txt', 'hello')]);
    cacheStored(cache, put.manifest, [{ name: 'a.bin', content: a }]); // as a turn does with the files it stored
    const lost = { files: put.manifest.files.map((f) => ({ ...f })) };
    // the store no longer has a.bin's content: only the cache can give it; b.txt comes from the store
    await store.removeWorkspaceFile('conv', 'r1', 'a.bin');
    const read = await readWorkspaceCached(store, cache, 'conv', 'r1', lost);
    expect(read.map((f) => [f.name, f.content.toString('hex')])).toEqual([['a.bin', a.toString('hex')], ['b.txt', Buffer.from('hello').toString('hex')]]);
    // b.txt came from the store and is cached now: a restore with the store's copy of it gone still has it
    await store.removeWorkspaceFile('conv', 'r1', 'b.txt');
    expect((await readWorkspaceCached(store, cache, 'conv', 'r1', lost)).map((f) => f.content.toString())).toContain('hello');
    // a replaced file: the manifest names the new content, which the cache lacks, so it is read from the store
    const replaced = await store.putWorkspaceFiles('conv', 'r1', [given('b.txt', 'hello again')]);
    const again = await readWorkspaceCached(store, cache, 'conv', 'r1', replaced.manifest);
    expect(again.find((f) => f.name === 'b.txt')!.content.toString()).toBe('hello again');
  });

  it('without a cache every content comes from the store, and a content the store lost is an error', async () => {
    const put = await store.putWorkspaceFiles('conv', 'r2', [given('x.txt', 'x')]);
    expect((await readWorkspaceCached(store, undefined, 'conv', 'r2', put.manifest))[0]!.content.toString()).toBe('x');
    await store.deleteRun('conv', 'r2');
    await expect(readWorkspaceCached(store, new WorkspaceCache({ dir: null }), 'conv', 'r2', put.manifest)).rejects.toThrow(/missing from the store/);
  });
});

describe('the cache', () => {
  it('its disk tier serves another process on this machine (read-only files), under the size the manifest gives', () => {
    const folder = join(dir, 'c2');
    const content = randomBytes(5000);
    new WorkspaceCache({ dir: folder }).put(hashOf(content), content);
    const other = new WorkspaceCache({ dir: folder, memoryBytes: 0 });
    expect(other.get(hashOf(content), 5000)?.equals(content)).toBe(true);
    expect(other.get(hashOf(content), 4999)).toBeUndefined();
    const file = join(folder, hashOf(content).slice(0, 2), hashOf(content));
    expect(statSync(file).mode & 0o777).toBe(0o400);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });

  it('keeps its disk tier within its bound, oldest written first, and its memory tier within its own', () => {
    const folder = join(dir, 'c3');
    const cache = new WorkspaceCache({ dir: folder, diskBytes: 10_000, memoryBytes: 3000 });
    const contents = Array.from({ length: 6 }, () => randomBytes(2500));
    contents.forEach((c) => cache.put(hashOf(c), c));
    const kept = readdirSync(folder).flatMap((sub) => readdirSync(join(folder, sub)));
    expect(kept.length).toBeLessThanOrEqual(3);
    expect(kept).toContain(hashOf(contents[5]!));
    expect(kept).not.toContain(hashOf(contents[0]!));
    const memoryOnly = new WorkspaceCache({ dir: null, memoryBytes: 3000 });
    contents.slice(0, 2).forEach((c) => memoryOnly.put(hashOf(c), c));
    expect(memoryOnly.get(hashOf(contents[0]!), 2500)).toBeUndefined();
    expect(memoryOnly.get(hashOf(contents[1]!), 2500)?.equals(contents[1]!)).toBe(true);
  });

  it('does not use a folder others may write (anyone could put a content under a hash): memory only, and says so', () => {
    const folder = join(dir, 'shared');
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    const warnings: string[] = [];
    const cache = new WorkspaceCache({ dir: folder, warn: (m) => warnings.push(m) });
    expect(cache.dir).toBeUndefined();
    expect(warnings[0]).toMatch(/is not this user's own .*mode 777.*cached in memory only/);
    const content = Buffer.from('still cached in memory');
    cache.put(hashOf(content), content);
    expect(cache.get(hashOf(content), content.length)?.toString()).toBe('still cached in memory');
    expect(readdirSync(folder)).toEqual([]);
  });
});
