/**
 * Team programs ({@link ProgramBackend}) on the store's Keyv, every backend alike (SQLite, Redis,
 * PostgreSQL, a Map): each write is a read-modify-write of the conversation's index under a lease
 * of the backend's {@link AtomicOps} (`lease` is one atomic statement or script in every backend),
 * so processes sharing the store take turns per conversation and two saves at once both land, as
 * two versions. The lease is checked again (renewed) just before the write: a writer that held it
 * past its time, while another took it, writes nothing and tries again.
 *
 * Keys (Keyv namespace `code-agent`, `<c>` the conversation id):
 * - `programs:<c>` → {@link ProgramIndex}: live names → record id, and the removed programs (ids, oldest first)
 * - `program:<c>:<id>` → the {@link TeamProgram} (its versions oldest first)
 * A removed name saved again is a new program under a new id; the removed one stays for the audit
 * (the oldest past `maxRemoved` are dropped).
 */
import { randomUUID } from 'node:crypto';
import type Keyv from 'keyv';
import type { AtomicOps } from './atomic.js';
import {
  DEFAULT_PROGRAM_LIMITS,
  PROGRAM_NAME,
  ProgramRefusedError,
  type NewProgramVersion,
  type ProgramBackend,
  type ProgramLimits,
  type TeamProgram,
} from './programs.js';

/** A conversation's programs: live names → record id; removed record ids, oldest removal first. */
export interface ProgramIndex {
  live: Record<string, string>;
  removed: string[];
}

/** How long one writer holds a conversation's lease at most, in ms (a write takes milliseconds). */
export const PROGRAM_LEASE_MS = 15_000;
/** How long a writer waits for the lease before it fails, in ms. */
export const PROGRAM_LEASE_WAIT_MS = 30_000;

/** Runs a store operation within the store's deadline (`passRefusals`: a {@link ProgramRefusedError} passes as it is). */
export type StoreCall = <T>(what: string, fn: () => Promise<T>, passRefusals: boolean) => Promise<T>;

/** See the module comment. */
export class KeyvPrograms implements ProgramBackend {
  constructor(
    private readonly keyv: Keyv,
    private readonly atomics: AtomicOps,
    private readonly call: StoreCall = (_what, fn) => fn(),
  ) {}

  async save(conversationId: string, name: string, version: NewProgramVersion, limits: ProgramLimits = DEFAULT_PROGRAM_LIMITS): Promise<TeamProgram> {
    checkName(name);
    const bytes = Buffer.byteLength(version.code);
    if (bytes > limits.maxCodeBytes) {
      throw new ProgramRefusedError(`the program is ${bytes} bytes long; a team program holds at most ${limits.maxCodeBytes} bytes of code`);
    }
    return this.call('save a team program', () =>
      this.locked(conversationId, async (index, commit) => {
        const id = index.live[name];
        const existing = id !== undefined ? await this.read(conversationId, id) : undefined;
        if (existing === undefined && Object.keys(index.live).length >= limits.maxPrograms) {
          throw new ProgramRefusedError(
            `this channel has ${Object.keys(index.live).length} team programs, the most it may keep is ${limits.maxPrograms}: remove one first (\`/program <name> remove\`)`,
          );
        }
        const program: TeamProgram = existing ?? { name, conversationId, versions: [] };
        const next = (program.versions.at(-1)?.version ?? 0) + 1;
        program.versions = [...program.versions, { ...structuredClone(version), version: next }].slice(-limits.maxVersions);
        const recordId = id ?? randomUUID();
        await commit(async () => {
          await this.keyv.set(recordKey(conversationId, recordId), program);
          if (id === undefined) {
            index.live[name] = recordId;
            await this.keyv.set(indexKey(conversationId), index);
          }
        });
        return program;
      }),
    true);
  }

  async get(conversationId: string, name: string): Promise<TeamProgram | undefined> {
    const index = await this.call('read the team programs', () => this.index(conversationId), false);
    const id = index.live[name.trim().toLowerCase()];
    return id === undefined ? undefined : this.call('read a team program', () => this.read(conversationId, id), false);
  }

  async list(conversationId: string, withRemoved = false): Promise<TeamProgram[]> {
    return this.call('list the team programs', async () => {
      const index = await this.index(conversationId);
      const live = Object.keys(index.live).sort().map((n) => index.live[n]!);
      const ids = withRemoved ? [...live, ...index.removed] : live;
      const programs = await Promise.all(ids.map((id) => this.read(conversationId, id)));
      return programs.filter((p): p is TeamProgram => p !== undefined);
    }, false);
  }

  async remove(conversationId: string, name: string, by: string, at: string): Promise<TeamProgram | undefined> {
    const key = name.trim().toLowerCase();
    return this.call('remove a team program', () =>
      this.locked(conversationId, async (index, commit) => {
        const id = index.live[key];
        if (id === undefined) return undefined;
        const program = await this.read(conversationId, id);
        const removed: TeamProgram | undefined = program ? { ...program, removedBy: by, removedAt: at } : undefined;
        delete index.live[key];
        index.removed.push(id);
        const dropped = index.removed.splice(0, Math.max(0, index.removed.length - DEFAULT_PROGRAM_LIMITS.maxRemoved));
        await commit(async () => {
          if (removed) await this.keyv.set(recordKey(conversationId, id), removed);
          await this.keyv.set(indexKey(conversationId), index);
          for (const old of dropped) await this.keyv.delete(recordKey(conversationId, old));
        });
        return removed;
      }),
    false);
  }

  /**
   * Puts back a program record as another store kept it (import), under its record id: live under
   * its name, or among the removed ones.
   * @returns `imported`, `unchanged` (the same record is there), or why it was skipped (another
   *   live program has that name here)
   */
  async restore(conversationId: string, recordId: string, program: TeamProgram, live: boolean): Promise<'imported' | 'unchanged' | { skipped: string }> {
    return this.call('import a team program', () =>
      this.locked(conversationId, async (index, commit) => {
        const there = await this.read(conversationId, recordId);
        const listed = live ? index.live[program.name] === recordId : index.removed.includes(recordId);
        if (listed && JSON.stringify(there) === JSON.stringify(program)) return 'unchanged' as const;
        const holder = index.live[program.name];
        if (live && holder !== undefined && holder !== recordId) {
          return { skipped: `a live program named ${program.name} with another history is already in ${conversationId}` };
        }
        if (live) index.live[program.name] = recordId;
        else {
          if (holder === recordId) delete index.live[program.name];
          if (!index.removed.includes(recordId)) index.removed.push(recordId);
        }
        await commit(async () => {
          await this.keyv.set(recordKey(conversationId, recordId), program);
          await this.keyv.set(indexKey(conversationId), index);
        });
        return 'imported' as const;
      }),
    false);
  }

  /** The conversation's index as stored (export). */
  storedIndex(conversationId: string): Promise<ProgramIndex> {
    return this.call('read the team programs', () => this.index(conversationId), false);
  }

  /** One record by its id (export); undefined when missing or not a program. */
  record(conversationId: string, recordId: string): Promise<TeamProgram | undefined> {
    return this.call('read a team program', () => this.read(conversationId, recordId), false);
  }

  /**
   * Runs `fn` holding the conversation's lease, with the index as read under it; `commit` writes
   * only while the lease is still held (renewed just before), else the whole turn starts again.
   */
  private async locked<T>(conversationId: string, fn: (index: ProgramIndex, commit: (write: () => Promise<void>) => Promise<void>) => Promise<T>): Promise<T> {
    const key = `programs:${conversationId}`;
    const owner = randomUUID();
    const until = Date.now() + PROGRAM_LEASE_WAIT_MS;
    for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
      if (await this.atomics.lease(key, owner, PROGRAM_LEASE_MS)) break;
      if (Date.now() > until) throw new Error(`another process held the team programs of ${conversationId} for more than ${PROGRAM_LEASE_WAIT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, wait + Math.random() * wait));
    }
    try {
      for (;;) {
        let lost = false;
        const result = await fn(await this.index(conversationId), async (write) => {
          if (!(await this.atomics.lease(key, owner, PROGRAM_LEASE_MS))) {
            lost = true;
            return;
          }
          await write();
        });
        if (!lost) return result;
        // held past its time and taken by another: wait for it again, then redo the whole turn
        while (!(await this.atomics.lease(key, owner, PROGRAM_LEASE_MS))) {
          if (Date.now() > until) throw new Error(`lost the lease on the team programs of ${conversationId} and could not take it again`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    } finally {
      await this.atomics.release(key, owner).catch(() => undefined);
    }
  }

  private async index(conversationId: string): Promise<ProgramIndex> {
    const stored = await this.keyv.get<ProgramIndex>(indexKey(conversationId));
    if (!stored || typeof stored !== 'object' || typeof stored.live !== 'object' || !Array.isArray(stored.removed)) return { live: {}, removed: [] };
    return stored;
  }

  private async read(conversationId: string, id: string): Promise<TeamProgram | undefined> {
    const program = await this.keyv.get<TeamProgram>(recordKey(conversationId, id));
    return program && Array.isArray(program.versions) ? program : undefined;
  }
}

/** @throws {ProgramRefusedError} when `name` is not a program name ({@link PROGRAM_NAME}). */
export function checkName(name: string): void {
  if (!PROGRAM_NAME.test(name)) {
    throw new ProgramRefusedError(
      `"${name.slice(0, 60)}" is not a program name: use lower-case letters, digits and dashes (at most 48, starting with a letter or digit), e.g. revenue-by-region`,
    );
  }
}

const indexKey = (conversationId: string) => `programs:${conversationId}`;
const recordKey = (conversationId: string, id: string) => `program:${conversationId}:${id}`;
