/**
 * Words for a run's workspace files, the same on every surface (terminal, Slack, Discord).
 */
import type { WorkspaceEntry } from '../agent/events.js';

/** `clean.csv (1.2 kB, written by attempt 1)`, `inventory.csv (40 B, given)`. */
export function workspaceEntryText(file: WorkspaceEntry): string {
  const from = file.origin.kind === 'input' ? 'given' : `written by attempt ${file.origin.attempt}`;
  return `${file.name} (${sizeText(file.bytes)}, ${from})`;
}

/** A size for people, in SI units: `40 B`, `1.2 kB`, `3.4 MB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** What a call that waits for another turn of the same run says, e.g. `… (at most 600 s)…`. */
export function queuedText(waitMs: number): string {
  return `⏳ Another request on this run is going; this one waits for it (at most ${Math.round(waitMs / 1000)} s)…`;
}

/** What a newer file of the same name says, e.g. `📁 a.csv replaced the earlier file of that name (40 B → 1.2 kB)`. */
export function replacedText(file: WorkspaceEntry, previous: WorkspaceEntry): string {
  return `📁 ${file.name} replaced the earlier file of that name (${sizeText(previous.bytes)} → ${sizeText(file.bytes)})`;
}
