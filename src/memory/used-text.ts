/**
 * How a thread says which of its channel's memory a run was given: one line,
 * `📌 used: revenue = units × unit_price; example from run r-1234`, and the same as a chat notice
 * (the definitions are the team's text: shown as untrusted lines, inside a code block).
 */
/** What of its channel's memory a run was given (the shape of the agent's `memory_used` event). */
export interface MemoryUsed {
  definitions: { id: string; text: string }[];
  /** Each example's entry id and the run it came from. */
  examples: { id: string; runId: string }[];
}

/** The parts, in order: each definition's text, then `example from run <id>` per example. */
export function memoryUsedParts(event: MemoryUsed): string[] {
  return [...event.definitions.map((d) => d.text), ...event.examples.map((x) => `example from run ${x.runId}`)];
}

/** `📌 used: <part>; <part>` (the terminal's line). */
export function memoryUsedLine(event: MemoryUsed): string {
  return `📌 used: ${memoryUsedParts(event).join('; ')}`;
}
