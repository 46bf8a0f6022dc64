/**
 * A run's start: the text of a request (or of feedback) checked against its bound, and the new run
 * as it is first stored.
 */
import type { Run } from '../../history/types.js';
import type { RunProgram } from '../../history/programs.js';
import { thisProcess } from '../../history/process-identity.js';
import { InputError } from '../../config/errors.js';
import { type CallOptions, newRunId } from '../run/index.js';

/**
 * Checks the text of a request or of feedback (already trimmed).
 * @param what what the text is, in the error: `requirement`, `feedback`
 * @param maxChars the longest text accepted, in characters (`agent.max_requirement_chars`)
 * @throws {InputError} when the text is empty or longer than `maxChars`
 */
export function checkRequestText(text: string, what: string, maxChars: number): void {
  if (text === '') throw new InputError(`the ${what} is empty: say what the program should do`);
  if (text.length > maxChars) {
    throw new InputError(`the ${what} is ${text.length} characters long; the limit is ${maxChars} (agent.max_requirement_chars)`);
  }
}

/**
 * A new run, `running` in this process, with no attempt yet (not stored).
 * @param requirement the request, trimmed
 * @param options the call's run id (else a new one), requester and chat
 * @param program the team program the run runs, when it runs one
 */
export function newRun(conversationId: string, requirement: string, options: CallOptions, program?: RunProgram): Run {
  const now = new Date().toISOString();
  return {
    id: options.runId ?? newRunId(),
    conversationId,
    requirement,
    requestedBy: options.requestedBy,
    status: 'running',
    runningIn: thisProcess(),
    attempts: [],
    createdAt: now,
    updatedAt: now,
    ...(options.chat ? { chat: options.chat } : {}),
    ...(program ? { program } : {}),
  };
}
