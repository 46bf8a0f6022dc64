/**
 * Words for a run's workspace files, the same on every surface (terminal, Slack, Discord).
 */
import { formatBytes } from './bytes.js';

/** A workspace file as these words need it (the agent's `WorkspaceEntry`, the store's `WorkspaceFile`). */
export interface WorkspaceEntryFacts {
  name: string;
  /** Size in bytes. */
  bytes: number;
  /** Given by the user, or written by the program of an attempt. */
  origin: { kind: 'input' } | { kind: 'written'; attempt: number };
}

/** `clean.csv (1.2 KB, written by attempt 1)`, `inventory.csv (40 B, given)`. */
export function workspaceEntryText(file: WorkspaceEntryFacts): string {
  const from = file.origin.kind === 'input' ? 'given' : `written by attempt ${file.origin.attempt}`;
  return `${file.name} (${formatBytes(file.bytes)}, ${from})`;
}

/** What a call that waits for another turn of the same run says, e.g. `… (at most 600 s)…`. */
export function queuedText(waitMs: number): string {
  return `⏳ Another request on this run is going; this one waits for it (at most ${Math.round(waitMs / 1000)} s)…`;
}

/** What a newer file of the same name says, e.g. `📁 a.csv replaced the earlier file of that name (40 B → 1.2 KB)`. */
export function replacedText(file: WorkspaceEntryFacts, previous: WorkspaceEntryFacts): string {
  return `📁 ${file.name} replaced the earlier file of that name (${formatBytes(previous.bytes)} → ${formatBytes(file.bytes)})`;
}
