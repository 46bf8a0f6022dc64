/**
 * Team programs as the terminal prints them (`code-agent programs`, the session's `/programs` and
 * `/program <name> show`): plain lines from the neutral texts of src/programs/text.ts.
 */
import type { TeamProgram } from '../../src/history/programs.js';
import type { Run } from '../../src/history/types.js';
import { programShowText, programsListText, savedNotice, type ProgramNotice, type ProgramSpelling } from '../../src/programs/text.js';

/** A notice as lines: its title, then its lines indented. */
export function noticeLines(notice: ProgramNotice): string[] {
  return [notice.title, ...notice.lines.map((l) => `  ${l}`)];
}

/** How the terminal's session and its scripts spell the program commands. */
export const TERMINAL_SPELLING = {
  session: { run: '/program', params: '[param=value …]', show: (name: string) => `/program ${name} show`, where: 'the terminal', save: 'Save the current run with /program save <name>' },
  scripts: {
    run: 'code-agent run --program',
    params: '[--param k=v]…',
    show: (name: string) => `code-agent programs show ${name}`,
    where: 'the terminal',
    save: 'Save a run in the interactive session (`code-agent`, then /history, /open <n>, /program save <name>)',
  },
} satisfies Record<string, ProgramSpelling>;

/** The list of live programs, spelled for the session or for scripts. */
export function listLines(programs: TeamProgram[], spelled: ProgramSpelling): string[] {
  return noticeLines(programsListText(programs, spelled));
}

/** One program: its current version, request, inputs, parameters, versions, then its code. */
export function showLines(program: TeamProgram): string[] {
  const shown = programShowText(program);
  return [shown.title, ...shown.sections.flatMap((s) => [`${s.title}:`, ...s.lines.map((l) => `  ${l}`)]), 'Code:', shown.code];
}

/** What a save says (who saved which version, its parameters). */
export function savedLines(program: TeamProgram, from?: Pick<Run, 'status' | 'error'>): string[] {
  return noticeLines(savedNotice(program, from));
}
