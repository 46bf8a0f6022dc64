/**
 * A local, content-addressed cache of workspace files, so that restoring a run's workspace reads
 * only what this machine does not hold yet from the store (the store stays the truth, across
 * machines). Two tiers, both keyed by the content's SHA-256 (as the manifest names it):
 * - memory: the most recently used contents of this process, up to {@link CACHE_MEMORY_BYTES};
 * - disk: one read-only file per content in a folder of this user's own beside the sandbox's work
 *   roots (`<tmpdir>/code-agent-workspace-cache-<uid>`), shared by the processes of the machine and
 *   kept across restarts, up to {@link CACHE_DISK_BYTES} (the least recently written go first).
 *
 * A content is cached only under the hash it was read or written with, after the store accepted or
 * returned it; a disk entry whose size is not the manifest's is ignored. The folder is refused (no
 * disk tier, with a reason) when another user owns it or others may write to it.
 *
 * Deleted contents: a cache with a `forgotten` source (the store's log of forgotten workspace
 * contents, `workspace-forgotten.ts`) reads it before each use and on {@link WorkspaceCache.sync},
 * and drops from both tiers every content a deletion named since its last read (a run deleted on
 * request or by retention, on any machine), so a deleted run's files do not outlive it here.
 *
 * Not a hard link into the work dir: each execution's work dir is a tmpfs of its own (a link cannot
 * cross file systems) and the program may write its inputs; contents are handed to the executor,
 * which writes them into that tmpfs (a memory copy).
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { FORGOTTEN_LOG_MAX, type ForgottenEntry } from './workspace-forgotten.js';

/** Most bytes of contents kept in memory per process. */
export const CACHE_MEMORY_BYTES = 128 * 1024 * 1024;
/** Most bytes of contents kept on disk (the oldest written are removed past it). */
export const CACHE_DISK_BYTES = 1024 * 1024 * 1024;

/** Options of {@link WorkspaceCache}. */
export interface WorkspaceCacheOptions {
  /** The disk tier's folder; default {@link defaultCacheDir}. `null`: memory only. */
  dir?: string | null;
  /** Default {@link CACHE_MEMORY_BYTES}; 0: no memory tier. */
  memoryBytes?: number;
  /** Default {@link CACHE_DISK_BYTES}. */
  diskBytes?: number;
  /** Told once why the disk tier is off (a folder another user could write). */
  warn?: (message: string) => void;
  /** The store's log of forgotten contents, newest `limit` entries oldest first (`KeyvHistoryStore.forgottenWorkspaceContents`). */
  forgotten?: (limit: number) => Promise<ForgottenEntry[]>;
  /** Told each log entry that names a run whose outputs went (this machine deletes the outputs it kept of it). */
  onForgottenRun?: (run: { conversationId: string; runId: string }) => void;
}

/** The file in the disk tier's folder naming the last log entry applied to it. */
const APPLIED_FILE = 'forgotten-applied';

/** The disk tier's folder when none is given: beside the sandbox's work roots, one per user. */
export function defaultCacheDir(): string {
  return join(tmpdir(), `code-agent-workspace-cache-${userInfo().uid}`);
}

const HASH = /^[0-9a-f]{64}$/;

/** See the module doc. Every method is synchronous and never throws (a disk failure is a miss). */
export class WorkspaceCache {
  private readonly memory = new Map<string, Buffer>();
  private memoryUsed = 0;
  private readonly memoryMax: number;
  private readonly diskMax: number;
  /** The disk tier's folder, or undefined when it is off. */
  readonly dir: string | undefined;
  private diskUsed: number | undefined;
  private readonly forgottenSource: ((limit: number) => Promise<ForgottenEntry[]>) | undefined;
  /** The id of the last log entry applied (kept in the disk tier's folder across restarts). */
  private lastApplied: string | undefined;
  private syncing: Promise<void> | undefined;
  private readonly onForgottenRun: WorkspaceCacheOptions['onForgottenRun'];

  constructor(options: WorkspaceCacheOptions = {}) {
    this.memoryMax = options.memoryBytes ?? CACHE_MEMORY_BYTES;
    this.diskMax = options.diskBytes ?? CACHE_DISK_BYTES;
    const dir = options.dir === undefined ? defaultCacheDir() : options.dir;
    this.dir = dir === null ? undefined : ownFolder(dir, options.warn);
    this.forgottenSource = options.forgotten;
    this.onForgottenRun = options.onForgottenRun;
    if (this.dir) {
      try {
        this.lastApplied = readFileSync(join(this.dir, APPLIED_FILE), 'utf8').trim() || undefined;
      } catch {
        this.lastApplied = undefined; // none yet
      }
    }
  }

  /**
   * Reads the store's log of forgotten contents and drops every content named since the last
   * read (all of them when entries may have been missed: a full log without the last one applied).
   * One read of the newest entry when nothing changed; concurrent calls share one read. Never
   * throws: a store that cannot be read is tried again at the next call.
   */
  sync(): Promise<void> {
    if (!this.forgottenSource) return Promise.resolve();
    this.syncing ??= this.applyForgotten(this.forgottenSource).finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  /** Drops these contents from both tiers (a later `put` may bring one back for a live run). */
  forget(hashes: readonly string[]): void {
    for (const hash of hashes) {
      const held = this.memory.get(hash);
      if (held) {
        this.memory.delete(hash);
        this.memoryUsed -= held.length;
      }
      const path = this.pathOf(hash);
      if (!path) continue;
      try {
        unlinkSync(path);
        this.diskUsed = undefined; // counted again when next needed
      } catch {
        /* not held here */
      }
    }
  }

  /** Drops every content from both tiers. */
  clear(): void {
    this.memory.clear();
    this.memoryUsed = 0;
    if (!this.dir) return;
    for (const e of this.entries()) {
      try {
        unlinkSync(e.path);
      } catch {
        /* removed meanwhile */
      }
    }
    this.diskUsed = 0;
  }

  private async applyForgotten(source: (limit: number) => Promise<ForgottenEntry[]>): Promise<void> {
    try {
      const newest = await source(1);
      if (newest.length === 0 || newest[0]!.id === this.lastApplied) return;
      const entries = await source(FORGOTTEN_LOG_MAX);
      const at = this.lastApplied === undefined ? -1 : entries.findIndex((e) => e.id === this.lastApplied);
      if (at === -1 && entries.length >= FORGOTTEN_LOG_MAX) this.clear(); // entries may have gone unread
      for (const e of entries.slice(at + 1)) {
        this.forget(e.hashes);
        if (e.run) this.onForgottenRun?.(e.run);
      }
      this.lastApplied = entries.at(-1)?.id;
      if (this.dir && this.lastApplied) {
        const tmp = join(this.dir, `${APPLIED_FILE}.${process.pid}.tmp`);
        writeFileSync(tmp, this.lastApplied, { mode: 0o600 });
        renameSync(tmp, join(this.dir, APPLIED_FILE));
      }
    } catch {
      /* the store cannot be read now: the next use tries again */
    }
  }

  /**
   * The content of `hash`, when this machine holds it with the expected size.
   * @param bytes the size the manifest gives
   */
  get(hash: string, bytes: number): Buffer | undefined {
    const held = this.memory.get(hash);
    if (held && held.length === bytes) {
      this.memory.delete(hash); // most recently used last
      this.memory.set(hash, held);
      return held;
    }
    const path = this.pathOf(hash);
    if (!path) return undefined;
    try {
      if (statSync(path).size !== bytes) return undefined;
      const content = readFileSync(path);
      this.remember(hash, content);
      return content;
    } catch {
      return undefined;
    }
  }

  /** Keeps a content under its hash (the caller hashed it, or the store named it so). */
  put(hash: string, content: Buffer): void {
    if (!HASH.test(hash)) return;
    this.remember(hash, content);
    const path = this.pathOf(hash);
    if (!path) return;
    try {
      if (statSync(path, { throwIfNoEntry: false })?.size === content.length) return;
      mkdirSync(join(this.dir!, hash.slice(0, 2)), { recursive: true, mode: 0o700 });
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, content, { mode: 0o400 });
      renameSync(tmp, path); // atomic: a reader sees the whole content or none
      this.diskUsed = (this.diskUsed ?? this.scanDisk()) + content.length;
      if (this.diskUsed > this.diskMax) this.pruneDisk();
    } catch {
      /* a full or read-only disk: the memory tier and the store still serve */
    }
  }

  private pathOf(hash: string): string | undefined {
    return this.dir && HASH.test(hash) ? join(this.dir, hash.slice(0, 2), hash) : undefined;
  }

  private remember(hash: string, content: Buffer): void {
    if (content.length > this.memoryMax) return;
    const old = this.memory.get(hash);
    if (old) this.memoryUsed -= old.length;
    this.memory.delete(hash);
    this.memory.set(hash, content);
    this.memoryUsed += content.length;
    for (const [key, value] of this.memory) {
      if (this.memoryUsed <= this.memoryMax) break;
      this.memory.delete(key);
      this.memoryUsed -= value.length;
    }
  }

  /** The disk tier's entries with their sizes and write times. */
  private entries(): { path: string; size: number; mtimeMs: number }[] {
    const out: { path: string; size: number; mtimeMs: number }[] = [];
    for (const sub of readdirSync(this.dir!)) {
      const folder = join(this.dir!, sub);
      let names: string[];
      try {
        names = readdirSync(folder);
      } catch {
        continue;
      }
      for (const name of names) {
        try {
          const st = statSync(join(folder, name));
          out.push({ path: join(folder, name), size: st.size, mtimeMs: st.mtimeMs });
        } catch {
          /* removed meanwhile */
        }
      }
    }
    return out;
  }

  private scanDisk(): number {
    return this.entries().reduce((n, e) => n + e.size, 0);
  }

  /** Removes the oldest written entries until the disk tier is within 90 % of its bound. */
  private pruneDisk(): void {
    const entries = this.entries().sort((a, b) => a.mtimeMs - b.mtimeMs);
    let used = entries.reduce((n, e) => n + e.size, 0);
    for (const e of entries) {
      if (used <= this.diskMax * 0.9) break;
      try {
        unlinkSync(e.path);
        used -= e.size;
      } catch {
        /* another process removed it */
      }
    }
    this.diskUsed = used;
  }
}

/**
 * Creates the folder (mode 0700) or checks the one there: it must be this user's and writable by
 * no one else, else it is not used (someone else could put contents under a hash).
 * @returns the folder, or undefined when it cannot be used (`warn` says why)
 */
function ownFolder(dir: string, warn: ((message: string) => void) | undefined): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    const uid = process.getuid?.();
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) {
      warn?.(`the workspace cache folder ${dir} is not this user's own (owner ${st.uid}, mode ${(st.mode & 0o777).toString(8)}): workspaces are cached in memory only`);
      return undefined;
    }
    chmodSync(dir, 0o700);
    return dir;
  } catch (err) {
    warn?.(`the workspace cache folder ${dir} cannot be used (${(err as Error).message}): workspaces are cached in memory only`);
    return undefined;
  }
}
