/**
 * Team programs as the terminal prints them (`code-agent programs`, the session's `/programs` and
 * `/program <name> show`): plain lines from the neutral texts of src/programs/text.ts.
 */
import type { TeamProgram } from '../../src/history/programs.js';
import { programShowText, programsListText, savedNotice, type ProgramNotice } from '../../src/programs/text.js';

/** A notice as lines: its title, then its lines indented. */
export function noticeLines(notice: ProgramNotice): string[] {
  return [notice.title, ...notice.lines.map((l) => `  ${l}`)];
}

/** The list of live programs (`run` is how a program is run from here, e.g. `/program` or `code-agent run --program`). */
export function listLines(programs: TeamProgram[], run: string): string[] {
  return noticeLines(programsListText(programs, run));
}

/** One program: its current version, request, inputs, parameters, versions, then its code. */
export function showLines(program: TeamProgram): string[] {
  const shown = programShowText(program);
  return [shown.title, ...shown.sections.flatMap((s) => [`${s.title}:`, ...s.lines.map((l) => `  ${l}`)]), 'Code:', shown.code];
}

/** What a save says (who saved which version, its parameters). */
export function savedLines(program: TeamProgram): string[] {
  return noticeLines(savedNotice(program));
}
