/**
 * How a thread says which of its channel's memory a run was given: one line,
 * `📌 used: revenue = units × unit_price; example from run r-1234`, and the same as a chat notice
 * (the definitions are the team's text: shown as untrusted lines, inside a code block).
 */
import type { MemoryUsedEvent } from '../agent/events.js';

/** The parts, in order: each definition's text, then `example from run <id>` per example. */
export function memoryUsedParts(event: Pick<MemoryUsedEvent, 'definitions' | 'examples'>): string[] {
  return [...event.definitions.map((d) => d.text), ...event.examples.map((x) => `example from run ${x.runId}`)];
}

/** `📌 used: <part>; <part>` (the terminal's line). */
export function memoryUsedLine(event: Pick<MemoryUsedEvent, 'definitions' | 'examples'>): string {
  return `📌 used: ${memoryUsedParts(event).join('; ')}`;
}
