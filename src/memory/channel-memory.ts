/**
 * Channel memory, the one entry point for everything that adds to, lists, forgets or reads a
 * conversation's memory: the chat and terminal commands (`/remember`, `/memory`), the command
 * line (`code-agent memory`), the agent (what a new run is given) and the approval of a run (👍 or
 * a settled choice adds it as an example: {@link ChannelMemory.addApprovedExample}).
 *
 * Entries live in the history store (`HistoryStore.memory`, every backend), per conversation:
 * nothing here reads or writes across conversations. Bounds: {@link MemoryLimits}; what a prompt
 * takes: {@link RecallBudget}.
 *
 * @example
 *   const memory = new ChannelMemory(store);
 *   await memory.remember('slack:C123', 'revenue = units × unit_price', 'U42');
 *   await memory.addApprovedExample(run, 'U42');            // after 👍, or a settled candidate
 *   await memory.forget('slack:C123', 'm7', 'U43');
 */
import { withoutFilesNote } from '../text/files-note.js';
import { checkedEntryBytes, DEFAULT_MEMORY_LIMITS, MemoryEntryError, type DefinitionHelper, type MemoryBackend, type MemoryEntry, type MemoryLimits, type NewMemoryEntry } from '../history/memory.js';
import type { HistoryStore, Run, RunMemory } from '../history/types.js';
import type { InputProfile } from '../data/profile.js';
import { chooseMemory, DEFAULT_RECALL_BUDGET, type RecallBudget, type RecallQuery } from './recall.js';

export { MemoryEntryError, MemoryFullError, type MemoryEntry, type MemoryLimits } from '../history/memory.js';
export type { RecallBudget, RecallQuery } from './recall.js';

/** The store keeps no memory (a store without `memory`): nothing can be remembered. */
export class MemoryUnavailableError extends Error {
  override name = 'MemoryUnavailableError';
}

/** Settings of channel memory (`memory.*` in the config). */
export interface ChannelMemoryOptions {
  limits?: MemoryLimits;
  budget?: RecallBudget;
  /** Definitions as code (`memory.definition_helpers`, src/agent/memory-use/helper-step.ts). Default false: definitions are given as sentences only. */
  definitionHelpers?: boolean;
}

/** The input files of a run as an example keeps them: one `name: summary` line each. */
export function inputSummary(profile: InputProfile | undefined): string {
  return (profile?.files ?? []).map((f) => `${f.name}: ${f.summary}`).join('\n');
}

/** Most distinct values a {@link RecallQuery} takes from the files' first rows. */
const MAX_INPUT_VALUES = 80;

/**
 * What a run is recalled for: its request (without the note naming its files: every run with
 * files has it, so its words would make any two such runs look alike), its files' summaries, their column names, and the text
 * values of their first rows (the profile's preview; distinct, numbers left out): the words a
 * definition may name that no column does ("FTE", "DE").
 */
export function recallQuery(request: string, profile: InputProfile | undefined): RecallQuery {
  const files = profile?.files ?? [];
  const cells = files.flatMap((f) => (f.rows ?? []).flat()).filter((c) => /\p{L}/u.test(c));
  const columns = files.flatMap((f) => (f.fields ?? []).map((x) => String(x.name)));
  return { request: withoutFilesNote(request), files: inputSummary(profile), values: [...new Set(cells)].slice(0, MAX_INPUT_VALUES).join(' '), columns };
}

/** See the module comment. */
export class ChannelMemory {
  readonly limits: MemoryLimits;
  readonly budget: RecallBudget;
  readonly definitionHelpers: boolean;

  constructor(
    private readonly store: Pick<HistoryStore, 'memory'>,
    options: ChannelMemoryOptions = {},
  ) {
    this.limits = options.limits ?? DEFAULT_MEMORY_LIMITS;
    this.budget = options.budget ?? DEFAULT_RECALL_BUDGET;
    this.definitionHelpers = options.definitionHelpers ?? false;
  }

  /** Whether the store keeps memory. */
  get available(): boolean {
    return this.store.memory !== undefined;
  }

  /**
   * Adds a definition the team stated; a live definition of the same sentence is returned as it is.
   * @param by who stated it (platform user id or name)
   * @throws {MemoryEntryError} empty or too long; {@link MemoryFullError} when a bound would be passed;
   *   {@link MemoryUnavailableError}; `HistoryError` when the store fails
   */
  async remember(conversationId: string, text: string, by: string): Promise<MemoryEntry> {
    const sentence = text.trim().replace(/\s+/g, ' ');
    // the same sentence twice (two people pressing Remember) is kept once
    const same = sentence === '' ? undefined : (await this.backend().list(conversationId, false)).find((e) => e.kind === 'definition' && e.text === sentence);
    if (same) return same;
    return this.add(conversationId, { kind: 'definition', text: sentence, addedBy: by, addedAt: new Date().toISOString() });
  }

  /**
   * Adds a run a person approved (👍) or settled (picked a candidate) as an example: its request,
   * its input files' summaries and its final program. A run already kept as a live example is not
   * added again (its entry is returned).
   * @param approvedBy who approved or settled it
   * @param code the program that gave the approved answer; default the run's answer (its last attempt with code)
   * @throws {MemoryEntryError} when the run has no program, or it is too large ({@link MemoryLimits.maxExampleBytes});
   *   {@link MemoryFullError}; {@link MemoryUnavailableError}; `HistoryError` when the store fails
   */
  async addApprovedExample(run: Run, approvedBy: string, code?: string): Promise<MemoryEntry> {
    const program = code ?? [...run.attempts].reverse().find((a) => a.code)?.code ?? '';
    const existing = await this.exampleOf(run);
    if (existing) return existing;
    if (program.trim() === '') throw new MemoryEntryError(`run ${run.id} has no program to remember`);
    return this.add(run.conversationId, {
      kind: 'example',
      text: withoutFilesNote(run.requirement),
      example: { runId: run.id, request: withoutFilesNote(run.requirement), inputSummary: inputSummary(run.inputProfile), code: program },
      addedBy: approvedBy,
      addedAt: new Date().toISOString(),
    });
  }

  /** The entry `id` of this conversation if it was forgotten (with who removed it and when), else undefined. */
  async forgotten(conversationId: string, id: string): Promise<MemoryEntry | undefined> {
    return (await this.backend().list(conversationId, true)).find((e) => e.id === id.trim() && e.removedAt !== undefined);
  }

  /** The live approved example made of `run`, if there is one. */
  async exampleOf(run: Pick<Run, 'id' | 'conversationId'>): Promise<MemoryEntry | undefined> {
    return (await this.backend().list(run.conversationId, false)).find((e) => e.example?.runId === run.id);
  }

  /** @returns the conversation's live entries, oldest first (forgotten ones too, with who and when, when `withRemoved`). */
  list(conversationId: string, withRemoved = false): Promise<MemoryEntry[]> {
    return this.backend().list(conversationId, withRemoved);
  }

  /**
   * Forgets an entry of this conversation: no later run is given it; it stays listed with
   * `withRemoved`, with who removed it and when.
   * @returns the forgotten entry, or undefined when the conversation has no live entry of that id
   */
  forget(conversationId: string, id: string, by: string): Promise<MemoryEntry | undefined> {
    return this.backend().forget(conversationId, id.trim(), by, new Date().toISOString());
  }

  /** What a new run in this conversation is given for its request and files (see `recall.ts`). */
  async recall(conversationId: string, query: RecallQuery): Promise<RunMemory> {
    if (!this.store.memory) return { definitions: [], examples: [] };
    const chosen = chooseMemory(await this.store.memory.list(conversationId, false), query, this.budget);
    // helpers off: the definitions are given as sentences, whatever helpers memory keeps
    if (!this.definitionHelpers) chosen.definitions = chosen.definitions.map(({ id, text }) => ({ id, text }));
    return chosen;
  }

  /**
   * Keeps a helper a run wrote with its definition, approved by `by` (a 👍 of that run): the
   * definition's entry is replaced by one with the same sentence, who added it and when, and the
   * helper (a new id; the old entry is forgotten by `by`, so `code-agent memory list --all` shows
   * both). A definition that has an approved helper already keeps it (a helper is written once).
   * @returns the definition's entry as kept, or undefined when the definition is no longer live
   * @throws {MemoryFullError} when the memory has no room for the new entry (nothing changed);
   *   {@link MemoryUnavailableError}; `HistoryError` when the store fails
   */
  async keepHelper(conversationId: string, definitionId: string, helper: DefinitionHelper, by: string): Promise<MemoryEntry | undefined> {
    const live = await this.backend().list(conversationId, false);
    const entry = live.find((e) => e.id === definitionId && e.kind === 'definition');
    if (!entry) return undefined;
    if (entry.helper) return entry;
    const { name, code, checked, runId } = helper;
    const kept = await this.add(conversationId, {
      kind: 'definition',
      text: entry.text,
      helper: { name, code, checked, runId, approvedBy: by, approvedAt: new Date().toISOString() },
      addedBy: entry.addedBy,
      addedAt: entry.addedAt,
    });
    await this.backend().forget(conversationId, entry.id, by, new Date().toISOString());
    return kept;
  }

  private async add(conversationId: string, entry: NewMemoryEntry): Promise<MemoryEntry> {
    const bytes = checkedEntryBytes(entry, this.limits);
    return this.backend().add(conversationId, entry, bytes, this.limits);
  }

  private backend(): MemoryBackend {
    if (!this.store.memory) throw new MemoryUnavailableError('this history store keeps no channel memory');
    return this.store.memory;
  }
}
