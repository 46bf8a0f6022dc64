/**
 * The methods a request states (the table: `table.ts`), what every program of the run is told of
 * them, and whether a program follows them. A stated method is a requirement: it is added to every
 * program's prompt (attempts and independent programs, `../../replies/prompts.ts`), and a program that does not
 * follow it fails a check whose message names the convention and the call.
 */
import type { ProgramCalls } from './calls.js';
import { DEFAULTS_CONVENTIONS } from './defaults.js';
import { NUMBER_CONVENTIONS } from './numbers.js';
import { ORDER_CONVENTIONS } from './order.js';
import { SPREAD_CONVENTIONS } from './spread.js';
import type { Convention, StatedMethod } from './table.js';

export type { StatedMethod } from './table.js';

/** Every convention of the table, in the order their statements are listed. */
export const CONVENTIONS: readonly Convention[] = [...DEFAULTS_CONVENTIONS, ...SPREAD_CONVENTIONS, ...ORDER_CONVENTIONS, ...NUMBER_CONVENTIONS];

/** The methods a request states (none when it states none; a convention stated both ways is left out). */
export function statedMethods(request: string): StatedMethod[] {
  return CONVENTIONS.flatMap((c) => c.recognise(request));
}

/** What a program's prompt says of the stated methods ('' when none): one line each. */
export function methodsSection(stated: readonly StatedMethod[]): string {
  if (stated.length === 0) return '';
  return ['The request states how to compute; these are requirements, follow each exactly:', ...stated.map((s) => `- ${s.requirement}`)].join('\n');
}

/** Why a program does not follow the stated methods: one message per method it does not follow, naming the convention and the call. */
export function unmetMethods(stated: readonly StatedMethod[], program: ProgramCalls): string[] {
  const byId = new Map(CONVENTIONS.map((c) => [c.id, c]));
  return stated.map((s) => byId.get(s.convention)!.unmet(s, program)).filter((m): m is string => m !== undefined);
}
