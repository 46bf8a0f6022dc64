/**
 * Artifacts: regular files the program created or changed in its work dir, copied to the host.
 * Symlinks are never followed (lstat, then open with O_NOFOLLOW and check the opened file),
 * so a link to a host file cannot leak its content; names are cleaned (`src/text/file-names.ts`); count and
 * size are capped. Every file is returned: two whose names are the same once cleaned (or where one
 * would be a folder of another) get distinct names (`data-2.csv`) and say so (`renamedFrom`).
 */
import { constants as fsc, lstatSync, readdirSync } from 'node:fs';
import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { cleanRelativePath, distinctName } from '../text/file-names.js';
import type { Artifact } from './types.js';

/**
 * The host has no room left for a program's files (ENOSPC, EDQUOT): not the program's fault and not
 * something another attempt can fix, so the execution fails with it (the run ends failed).
 */
export class HostDiskFullError extends Error {
  override name = 'HostDiskFullError';
}

/** How deep sub-folders of the work dir are searched. */
export const MAX_SCAN_DEPTH = 4;
/** How many directory entries are looked at in total (a program may create millions). */
export const MAX_SCAN_ENTRIES = 2000;

/** Size and mtime of a file, to tell whether the program changed it. */
export type Snapshot = Map<string, string>;

const stamp = (size: number, mtimeNs: bigint) => `${size}:${mtimeNs}`;

/** Records the files present before the program runs (the user code, the input files). */
export function snapshot(workDir: string, names: string[]): Snapshot {
  const snap: Snapshot = new Map();
  for (const name of names) {
    const st = lstatSync(join(workDir, name), { bigint: true });
    snap.set(name, stamp(Number(st.size), st.mtimeNs));
  }
  return snap;
}

/** What {@link collectArtifacts} found. */
export interface CollectedArtifacts {
  artifacts: Artifact[];
  /** True when a file was skipped for being too large or past the count limit. */
  limitHit: boolean;
}

interface Candidate {
  rel: string[];
  abs: string;
}

/**
 * Lists new or changed regular files. Synchronous on purpose: at most {@link MAX_SCAN_ENTRIES}
 * entries of a tmpfs (µs each), where a thread-pool round trip per entry would cost ~0.2 ms.
 */
function scan(workDir: string, before: Snapshot): Candidate[] {
  const found: Candidate[] = [];
  let seen = 0;
  const walk = (dir: string, rel: string[]): void => {
    if (rel.length >= MAX_SCAN_DEPTH) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++seen > MAX_SCAN_ENTRIES) return;
      if (entry.name.startsWith('.')) continue;
      const abs = join(dir, entry.name);
      const path = [...rel, entry.name];
      if (entry.isDirectory()) walk(abs, path);
      else if (entry.isFile()) {
        let st;
        try {
          st = lstatSync(abs, { bigint: true });
        } catch {
          continue; // gone, or unreadable: not returned
        }
        if (!st.isFile()) continue;
        if (before.get(path.join('/')) === stamp(Number(st.size), st.mtimeNs)) continue; // unchanged input
        found.push({ rel: path, abs });
      }
      // symlinks, fifos, sockets, devices: never returned
    }
  };
  walk(workDir, []);
  return found;
}

/**
 * Reads a regular file without following symlinks, up to `maxBytes`.
 * @returns the content, `'too_large'`, or null when it is not a plain regular file
 */
async function readRegular(path: string, maxBytes: number): Promise<Buffer | 'too_large' | null> {
  let fh;
  try {
    fh = await open(path, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.nlink !== 1) return null; // hard links could alias a file outside
    if (st.size > maxBytes) return 'too_large';
    const buf = Buffer.alloc(st.size + 1);
    let total = 0;
    while (total < buf.length) {
      const { bytesRead } = await fh.read(buf, total, buf.length - total, total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    return total > st.size ? null : buf.subarray(0, total); // grew while read: not trusted
  } finally {
    await fh.close();
  }
}

/**
 * Copies new or changed regular files from `workDir` into `destDir` (created).
 * @param maxArtifacts files returned at most
 * @param maxArtifactBytes largest file returned, in bytes; larger ones are skipped
 */
export async function collectArtifacts(
  workDir: string,
  before: Snapshot,
  destDir: string,
  maxArtifacts: number,
  maxArtifactBytes: number,
): Promise<CollectedArtifacts> {
  const candidates = scan(workDir, before);
  const artifacts: Artifact[] = [];
  const used = new Set<string>();
  let limitHit = false;
  for (const c of candidates) {
    if (artifacts.length >= maxArtifacts) {
      limitHit = true;
      break;
    }
    const cleaned = cleanRelativePath(c.rel);
    if (cleaned === null) continue;
    // two names may clean to the same path, or one to a folder of another: a distinct name, never a lost file
    const flat = collides(cleaned, used) ? cleaned.replaceAll('/', '_') : cleaned;
    const name = distinctName(flat, (n) => used.has(n) || collides(n, used));
    const content = await readRegular(c.abs, Math.min(maxArtifactBytes, 2 ** 31 - 2));
    if (content === null) continue;
    if (content === 'too_large') {
      limitHit = true;
      continue;
    }
    const path = join(destDir, name);
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content, { mode: 0o644, flag: 'wx' });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') await rm(path, { force: true }).catch(() => undefined); // never a truncated copy
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        throw new HostDiskFullError(`the host's disk is full: the program's file ${name} could not be kept (free some space on the host and run it again)`, { cause: err });
      }
      continue; // a name the host cannot take: the file is not returned
    }
    used.add(name);
    const written = c.rel.join('/');
    artifacts.push({ name, path, bytes: content.length, ...(name !== cleaned ? { renamedFrom: written } : {}) });
  }
  return { artifacts, limitHit };
}

/**
 * {@link collectArtifacts}, except for a program that was stopped (a limit hit, a signal, a
 * cancel): its files may be half-written, so none is returned and `withheld` counts them.
 */
export async function collectUnlessKilled(
  stopped: boolean,
  workDir: string,
  before: Snapshot,
  destDir: string,
  maxArtifacts: number,
  maxArtifactBytes: number,
): Promise<CollectedArtifacts & { withheld: number }> {
  if (!stopped) return { ...(await collectArtifacts(workDir, before, destDir, maxArtifacts, maxArtifactBytes)), withheld: 0 };
  return { artifacts: [], limitHit: false, withheld: scan(workDir, before).length };
}

/** True when `name` is a folder of a returned file, or a returned file is one of its folders. */
function collides(name: string, used: Set<string>): boolean {
  for (const other of used) {
    if (other.startsWith(`${name}/`) || name.startsWith(`${other}/`)) return true;
  }
  return false;
}
