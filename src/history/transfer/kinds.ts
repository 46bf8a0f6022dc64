/**
 * The record kinds of a dump (`code-agent store export|import`): one JSONL line per record, each
 * `{"kind": "<name>", …}`. A kind says how its lines are checked, written by export and put back by
 * import. `registry.ts` lists them: the registry export and import walk, in that order.
 *
 * Extension point: a new kind of record a conversation owns adds one
 * {@link RecordKind} to `RECORD_KINDS` (`registry.ts`); export, import, the counts and the checks take it
 * from there. A kind's import must be idempotent (a line imported twice changes nothing the second
 * time) and write one record so that a failure midway leaves it as it was or whole.
 */
import type Keyv from 'keyv';
import type { KeyvHistoryStore } from '../keyv-store.js';
import type { AtomicOps } from '../atomic.js';
import type { KeyvWorkspaces } from '../workspace-keyv.js';
import type { KeyvPrograms } from '../programs-keyv.js';

/** One store seen by export or import, with the parts the kinds use. */
export interface TransferSide {
  store: KeyvHistoryStore;
  keyv: Keyv;
  atomics: AtomicOps;
  workspaces: KeyvWorkspaces;
  programs: KeyvPrograms;
  /** Runs one operation within the store's deadline, its error naming the store. */
  call: <T>(what: string, fn: () => Promise<T>) => Promise<T>;
}

/** What an export covers. */
export interface ExportScope {
  /** The conversations exported. */
  conversations: string[];
  /** Only runs updated at or after this time (ISO 8601) and usage of days from its day; memory and programs are exported whole. */
  since?: string;
  /** The run ids exported per conversation (filled by the `run` kind, read by the kinds after it). */
  runs: Map<string, string[]>;
}

/** What importing one line did. */
export type ImportOutcome = 'imported' | 'unchanged' | { skipped: string };

/** One kind of record (see the module comment). */
export interface RecordKind {
  /** The line's `kind`. */
  kind: string;
  /** Why a parsed line is not a well-formed record of this kind (a path and a reason), else undefined. */
  problem(line: Record<string, unknown>): string | undefined;
  /** The kind's lines for the scope, one object per line. */
  export(source: TransferSide, scope: ExportScope): AsyncIterable<Record<string, unknown>>;
  /** Puts one line (already checked) into the target; per-import state (caches) lives in `memo`. */
  import(target: TransferSide, line: Record<string, unknown>, memo: Map<string, unknown>): Promise<ImportOutcome>;
}

/** Small checks shared by the kinds: each returns a problem or undefined. */
export const check = {
  text(value: unknown, path: string): string | undefined {
    return typeof value === 'string' && value !== '' ? undefined : `${path}: expected a non-empty string`;
  },
  object(value: unknown, path: string): string | undefined {
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : `${path}: expected an object`;
  },
  first(...problems: (string | undefined)[]): string | undefined {
    return problems.find((p) => p !== undefined);
  },
};
