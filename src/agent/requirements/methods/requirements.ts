/**
 * What the request states that a program did not follow: its stated methods (read from the
 * program's calls in the sandbox, `calls.ts`, only when the request states one) and the answer's
 * form (`../answer-form.ts`). An attempt with any is never confirmed and the next attempt is told;
 * an independent program with any does not count as agreeing or disagreeing.
 */
import type { Executor } from '../../../sandbox/types.js';
import { formFault } from '../answer-form.js';
import { readCalls } from './calls.js';
import { statedMethods, unmetMethods } from './stated.js';

/**
 * The requirements a program did not follow, one message each (empty: it followed every one).
 * @param request the request so far
 * @param stdout what the program printed
 * @throws {SandboxUnavailableError} when the sandbox cannot isolate here
 */
export async function unmetRequirements(executor: Executor, request: string, code: string, stdout: string, signal?: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  const form = formFault(stdout, request);
  if (form !== undefined) out.push(form);
  const stated = statedMethods(request);
  if (stated.length > 0 && code.trim() !== '') {
    const program = await readCalls(executor, code, signal);
    if (program) out.push(...unmetMethods(stated, program));
  }
  return out;
}

/** What the next attempt is told of the requirements its program did not follow. */
export function unmetFeedback(unmet: readonly string[]): string {
  return `It does not do what the request states:\n${unmet.map((u) => `- ${u}`).join('\n')}\nFollow every stated method and print the answer in the form asked.`;
}
