/**
 * Channel memory as the history store keeps it: per conversation, definitions the team states and
 * approved examples (a run a person approved or settled), each with who added it and when, and,
 * once forgotten, who removed it and when (a forgotten entry stays as a tombstone for the audit, but
 * is never given to a run again). Bounded per conversation: live entries and their bytes
 * ({@link MemoryLimits}); an entry that would pass a bound is refused with a {@link MemoryFullError}.
 *
 * The backends (`memory-sql.ts` for SQLite and PostgreSQL, `memory-redis.ts`) check the bounds
 * and add in one atomic step, so processes sharing a store never pass a bound together. What a
 * run does with memory (retrieval, prompts, commands) is in `src/memory`.
 */
import { DEFAULT_MEMORY_LIMITS as MEMORY_LIMITS_DEFAULTS, DEFAULT_RECALL_BUDGET as RECALL_BUDGET_DEFAULTS } from '../config/defaults.js';

/** The two kinds of entries. */
export type MemoryKind = 'definition' | 'example';

/** What an approved example holds: the run it came from, its request, its files and its final program. */
export interface MemoryExample {
  /** The run a person approved or settled. */
  runId: string;
  /** The run's requirement. */
  request: string;
  /** One line per input file, `name: summary` (the input profile's summaries), '' without files. */
  inputSummary: string;
  /** The final program (the approved attempt's code). */
  code: string;
}

/**
 * A definition as code: a small named Python function a run wrote once for a definition, checked
 * on the run's files in the sandbox, and kept with the definition once a person approved that run
 * (👍). Later runs given the definition find it importable (`from team import revenue`).
 * An optional field of a definition entry: stores written before it read as before (no migration).
 */
export interface DefinitionHelper {
  /** The function's name, a Python identifier (`revenue`); the module is always `team`. */
  name: string;
  /** The function's source: its imports and its `def` (what goes into `team.py`). */
  code: string;
  /** What its check saw, in words: `sales.csv: a numeric Series of 120 values`. */
  checked: string;
  /** The run that wrote it. */
  runId: string;
  /** Who approved it (a 👍 of the run that wrote it) and when (ISO 8601); absent while not approved. */
  approvedBy?: string;
  approvedAt?: string;
}

/** An entry to add (the store gives it its id). */
export interface NewMemoryEntry {
  kind: MemoryKind;
  /** A definition's sentence; an example's request. */
  text: string;
  /** Set for `example` entries. */
  example?: MemoryExample;
  /** A `definition`'s helper, once one was written, checked and approved. */
  helper?: DefinitionHelper;
  /** Who added it (platform user id or name; `terminal` in the CLI). */
  addedBy: string;
  /** ISO 8601. */
  addedAt: string;
}

/** One entry of a conversation's memory. */
export interface MemoryEntry extends NewMemoryEntry {
  /** Short and unique in the store (`m12`): what `/memory forget <id>` takes. */
  id: string;
  conversationId: string;
  /** Bytes it counts against the conversation's bound (its JSON). */
  bytes: number;
  /** Who forgot it; absent while it is live. */
  removedBy?: string;
  /** ISO 8601, when it was forgotten. */
  removedAt?: string;
}

/** Bounds of one conversation's memory. */
export interface MemoryLimits {
  /** Most live entries (definitions and examples together). */
  maxEntries: number;
  /** Most bytes of live entries together (their JSON). */
  maxBytes: number;
  /** Longest definition, in characters. */
  maxDefinitionChars: number;
  /** Largest example (request, summary and program as JSON), in bytes. */
  maxExampleBytes: number;
}

/** Defaults: 200 entries and 256 KiB per conversation, definitions of 300 characters, examples of 16 KiB. */
export const DEFAULT_MEMORY_LIMITS: MemoryLimits = { ...MEMORY_LIMITS_DEFAULTS };

/** How much of a prompt memory may take (what a run is given: `src/memory/recall.ts`). Tokens are estimated as characters / 4. */
export interface RecallBudget {
  /** Most tokens of definitions in a prompt. */
  definitionTokens: number;
  /** Most definitions in a prompt. */
  maxDefinitions: number;
  /** Most tokens of examples in a prompt. */
  exampleTokens: number;
  /** Most examples in a prompt. */
  maxExamples: number;
}

/** 500 tokens of definitions; at most 2 examples in 1,500 tokens. */
export const DEFAULT_RECALL_BUDGET: RecallBudget = { ...RECALL_BUDGET_DEFAULTS };

/** Forgotten entries kept per conversation for the audit; older tombstones are dropped. */
export const MAX_TOMBSTONES = 500;

/** A bound of a conversation's memory would be passed: nothing was added. `message` names it and what to do. */
export class MemoryFullError extends Error {
  override name = 'MemoryFullError';
}

/** An entry that cannot be kept at all (empty, too long): nothing was added. */
export class MemoryEntryError extends Error {
  override name = 'MemoryEntryError';
}

/** Memory kept by a backend; each method is atomic across processes sharing the store. */
export interface MemoryBackend {
  /**
   * Adds an entry when the conversation stays within `limits` (live entries and bytes).
   * @returns the stored entry with its id
   * @throws {MemoryFullError} when a bound would be passed
   */
  add(conversationId: string, entry: NewMemoryEntry, bytes: number, limits: MemoryLimits): Promise<MemoryEntry>;
  /** @returns the conversation's entries, oldest first; forgotten ones too when `withRemoved`. */
  list(conversationId: string, withRemoved: boolean): Promise<MemoryEntry[]>;
  /**
   * Forgets a live entry of this conversation (an id of another conversation is not found).
   * @returns the entry as forgotten, or undefined when the conversation has no live entry of that id
   */
  forget(conversationId: string, id: string, by: string, at: string): Promise<MemoryEntry | undefined>;
  /**
   * Puts back an entry as another store kept it (import; live or forgotten, its bounds not checked):
   * under its own id when that id is free in this store, else under a new one.
   * @returns the entry as stored (its id)
   */
  restore?(entry: MemoryEntry): Promise<MemoryEntry>;
  /** The conversations that have entries (live or forgotten), in no particular order (export). */
  conversations?(): Promise<string[]>;
}

/**
 * A backend whose every operation goes through `call` (the store's deadline and error naming); a
 * refusal (memory full) is passed through as it is: it is the caller's to say, not a store failure.
 */
export function withDeadlines(memory: MemoryBackend, call: <T>(what: string, fn: () => Promise<T>, passRefusals: boolean) => Promise<T>): MemoryBackend {
  return {
    add: (conversationId, entry, bytes, limits) => call('add to the channel memory', () => memory.add(conversationId, entry, bytes, limits), true),
    list: (conversationId, withRemoved) => call('read the channel memory', () => memory.list(conversationId, withRemoved), false),
    forget: (conversationId, id, by, at) => call('forget a memory entry', () => memory.forget(conversationId, id, by, at), false),
    ...(memory.restore ? { restore: (entry: MemoryEntry) => call('import a memory entry', () => memory.restore!(entry), false) } : {}),
    ...(memory.conversations ? { conversations: () => call('list the channel memories', () => memory.conversations!(), false) } : {}),
  };
}

/**
 * The bytes an entry counts for: its JSON in UTF-8.
 * @throws {MemoryEntryError} for an empty text, a definition longer than `maxDefinitionChars` or an example larger than `maxExampleBytes`
 */
export function checkedEntryBytes(entry: NewMemoryEntry, limits: MemoryLimits): number {
  const text = entry.text.trim();
  if (text === '') throw new MemoryEntryError(entry.kind === 'definition' ? 'the definition is empty: say what to remember, e.g. "revenue = units × unit_price"' : 'the example has no request');
  if (entry.kind === 'definition' && [...text].length > limits.maxDefinitionChars) {
    throw new MemoryEntryError(`the definition is ${[...text].length} characters long; the limit is ${limits.maxDefinitionChars} (memory.max_definition_chars): keep it to one short sentence`);
  }
  if (entry.kind === 'example' && !entry.example) throw new MemoryEntryError('an example needs its run, request and program');
  const bytes = Buffer.byteLength(JSON.stringify(entry));
  if (entry.kind === 'example' && bytes > limits.maxExampleBytes) {
    throw new MemoryEntryError(`the example is ${bytes} bytes; the limit is ${limits.maxExampleBytes} (memory.max_example_bytes)`);
  }
  return bytes;
}

/** The refusal of an entry that would pass a bound, naming it and its config key. */
export function fullError(conversationId: string, bound: 'entries' | 'bytes', limits: MemoryLimits, used: number, bytes: number): MemoryFullError {
  return bound === 'entries'
    ? new MemoryFullError(`the memory of ${conversationId} is full: it holds ${used} entries, the limit is ${limits.maxEntries} (memory.max_entries); forget one with /memory forget <id>`)
    : new MemoryFullError(`the memory of ${conversationId} is full: ${used} bytes used, this entry needs ${bytes} more, the limit is ${limits.maxBytes} (memory.max_bytes); forget one with /memory forget <id>`);
}

/** In one process only (a Map-backed store in tests and benches). */
export class InProcessMemory implements MemoryBackend {
  private readonly entries = new Map<string, MemoryEntry[]>();
  private seq = 0;

  async add(conversationId: string, entry: NewMemoryEntry, bytes: number, limits: MemoryLimits): Promise<MemoryEntry> {
    const all = this.entries.get(conversationId) ?? [];
    const live = all.filter((e) => e.removedAt === undefined);
    if (live.length >= limits.maxEntries) throw fullError(conversationId, 'entries', limits, live.length, bytes);
    const used = live.reduce((n, e) => n + e.bytes, 0);
    if (used + bytes > limits.maxBytes) throw fullError(conversationId, 'bytes', limits, used, bytes);
    const stored: MemoryEntry = { ...structuredClone(entry), id: `m${++this.seq}`, conversationId, bytes };
    all.push(stored);
    this.entries.set(conversationId, all);
    return structuredClone(stored);
  }

  async list(conversationId: string, withRemoved: boolean): Promise<MemoryEntry[]> {
    const all = this.entries.get(conversationId) ?? [];
    return structuredClone(withRemoved ? all : all.filter((e) => e.removedAt === undefined));
  }

  async forget(conversationId: string, id: string, by: string, at: string): Promise<MemoryEntry | undefined> {
    const all = this.entries.get(conversationId) ?? [];
    const entry = all.find((e) => e.id === id && e.removedAt === undefined);
    if (!entry) return undefined;
    entry.removedBy = by;
    entry.removedAt = at;
    const removed = all.filter((e) => e.removedAt !== undefined);
    const drop = new Set(removed.slice(0, Math.max(0, removed.length - MAX_TOMBSTONES)));
    this.entries.set(conversationId, all.filter((e) => !drop.has(e)));
    return structuredClone(entry);
  }

  async restore(entry: MemoryEntry): Promise<MemoryEntry> {
    const n = Number(/^m(\d+)$/.exec(entry.id)?.[1] ?? 0);
    const id = n > this.seq ? entry.id : `m${this.seq + 1}`;
    this.seq = Math.max(this.seq, Number(id.slice(1)));
    const stored = { ...structuredClone(entry), id };
    const all = this.entries.get(entry.conversationId) ?? [];
    all.push(stored);
    all.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
    this.entries.set(entry.conversationId, all);
    return structuredClone(stored);
  }

  async conversations(): Promise<string[]> {
    return [...this.entries.keys()];
  }
}

/** An entry's JSON as the backends keep it: what was added, without what the store sets (id, conversation, bytes, removal). */
export function addedPart(entry: MemoryEntry): NewMemoryEntry {
  const { kind, text, example, helper, addedBy, addedAt } = entry;
  return { kind, text, ...(example ? { example } : {}), ...(helper ? { helper } : {}), addedBy, addedAt };
}
