/**
 * The work gate of a schedule (docs/schedules.md, "Gates"): a tick whose inputs did not change
 * since the last posted run posts nothing. What "inputs" covers, honestly:
 *
 * - the program itself: its name, version and parameter values (a new version always posts);
 * - the files it was given: each name and SHA-256 of its content;
 * - what its tools answered: for every call that was answered, the SHA-256 the broker recorded
 *   (`ToolCallRecord.answer`): HTTP the status and the body the program received (after
 *   redaction; a server's new `ETag` or `Last-Modified` with the same body is the same answer),
 *   SQL the result's columns and rows. A refused or failed call counts as its tool and "failed".
 *
 * The program runs on every tick (its tool answers are only known by running it; a run costs no
 * LLM call); the gate decides whether it is posted. A program with no input at all (no file, no
 * tool call) has nothing to watch: the work gate never holds it back (its answer may depend on the
 * date; use `only when it changed` to post only new answers).
 */
import { createHash } from 'node:crypto';
import type { ToolCallRecord } from '../history/execution.js';
import type { GivenFile } from './tick-runner.js';

/** The fingerprint of a tick's inputs, and whether there was anything to watch. */
export interface InputsFingerprint {
  fingerprint: string;
  /** False when the program had no file and made no tool call (the gate then never holds it back). */
  watched: boolean;
}

/** Fingerprints a tick's inputs (see the module comment). */
export function inputsFingerprint(program: { code: string; params: Record<string, unknown> }, files: readonly GivenFile[], toolCalls: readonly ToolCallRecord[]): InputsFingerprint {
  const h = createHash('sha256');
  h.update(createHash('sha256').update(program.code).digest('hex'));
  h.update(`\0params\0${JSON.stringify(Object.entries(program.params).sort(([a], [b]) => a.localeCompare(b)))}`);
  for (const f of [...files].sort((a, b) => a.name.localeCompare(b.name))) h.update(`\0file\0${f.name}\0${f.hash}`);
  // answers in sorted order: calls made at once may come back in either order
  const answers = toolCalls.map((c) => `${c.tool}\0${c.answer ?? 'failed'}`).sort();
  for (const a of answers) h.update(`\0tool\0${a}`);
  return { fingerprint: h.digest('hex'), watched: files.length > 0 || toolCalls.length > 0 };
}

/**
 * Whether the work gate holds a tick back.
 * @param lastInputs the fingerprint of the last posted run's inputs (undefined: none posted yet)
 */
export function unchangedInputs(enabled: boolean, inputs: InputsFingerprint, lastInputs: string | undefined): boolean {
  return enabled && inputs.watched && lastInputs !== undefined && inputs.fingerprint === lastInputs;
}
