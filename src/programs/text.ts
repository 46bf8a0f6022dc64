/**
 * What every surface says of team programs, in our own words (plain text; each platform escapes
 * and formats it): the mark of a run that ran one (distinct from the agent's ✅), the notice at its
 * start, the notice of files that do not fit, and the answers of `/programs` and
 * `/program <name> show`. Pure functions; a program's code, names and values are the team's text
 * and are shown as such (in code blocks where the platform has them).
 */
import type { Run } from '../history/types.js';
import type { ProgramVersion, RunProgram, TeamProgram } from '../history/programs.js';
import { inputLines } from './inputs.js';
import { pythonLiteral } from './parameters.js';

/** What the start of a program's run says (the agent's `program` event). */
export interface ProgramStart extends Pick<RunProgram, 'name' | 'version' | 'approvedBy' | 'approvedByName' | 'approvedAt'> {
  /** Each parameter as the program runs with it (a Python literal), and whether it was given. */
  params: { name: string; value: string; given: boolean }[];
}

/** What a misfit says (the agent's `program_misfit` event). */
export interface ProgramMisfit extends Pick<RunProgram, 'name' | 'version'> {
  misfits: string[];
}

/** A neutral notice: a title (our words) and lines (shown in a code block). */
export interface ProgramNotice {
  title: string;
  lines: string[];
}

/** Who approved a version and when: `Alice on 2026-11-30`. */
export function approvedText(v: Pick<ProgramVersion, 'approvedBy' | 'approvedByName' | 'approvedAt'>): string {
  return `${v.approvedByName || v.approvedBy} on ${v.approvedAt.slice(0, 10)}`;
}

/** `` `revenue-by-region` v3 `` */
export function programRef(p: Pick<RunProgram, 'name' | 'version'>): string {
  return `\`${p.name}\` v${p.version}`;
}

/**
 * The outcome mark of a run that ran a team program, while its answer is the program's (not after
 * an improve): `✅ team program `x` v3, approved by Alice on 2026-11-30`, or the failure said
 * plainly. Undefined for the agent's runs.
 */
export function programMark(run: Pick<Run, 'program' | 'attempts' | 'status' | 'error'>): { ok: boolean; text: string } | undefined {
  const p = run.program;
  const last = run.attempts.at(-1);
  if (!p || !last || (last.keptFrom ?? last.index) !== p.attempt) return undefined;
  if (p.misfits?.length) return { ok: false, text: `❌ team program ${programRef(p)} was not run: its files do not fit what it was saved with` };
  if (run.status === 'success') return { ok: true, text: `✅ team program ${programRef(p)}, approved by ${approvedText(p)}` };
  if (run.status === 'running') return undefined;
  return { ok: false, text: `❌ team program ${programRef(p)} (approved by ${approvedText(p)}) failed: ${run.error ?? 'failed'}` };
}

/** What a run found for a request in other words offers, to take the normal path instead (a button's label). */
export const NEW_PROGRAM_LABEL = '✍️ Write a new program';

/** Where a program's start notice is read: a chat thread, the terminal session, or `code-agent run`. */
export type ProgramSurface = 'chat' | 'terminal' | 'command';

/** How each surface has a new program written instead of a team program found for the request. */
const NEW_PROGRAM_WAY: Record<ProgramSurface, string> = {
  chat: `"${NEW_PROGRAM_LABEL}" below`,
  terminal: '/improve write a new program',
  command: 'The same command with --new',
};

/**
 * The notice at the start of a program's run: which version, approved by whom, no LLM call; the
 * parameters as it runs with them. A program found for a request in other words says so first and
 * how to have a new program written instead: never silent about which program answered.
 * @param surface `chat`: the button; `terminal`: the session's command; `command`: `code-agent run --new`
 */
export function programStartNotice(e: ProgramStart & { matched?: true }, surface: ProgramSurface = 'chat'): ProgramNotice {
  const instead = NEW_PROGRAM_WAY[surface];
  const title = e.matched
    ? `🧩 This looks like team program ${programRef(e)}, approved by ${approvedText(e)}: running it (the saved code, no LLM call). Not what you asked? ${instead} takes the usual path.`
    : `▶️ Running team program ${programRef(e)}, approved by ${approvedText(e)}: the saved code, no LLM call.`;
  return { title, lines: e.params.map((p) => `${p.name} = ${p.value}${p.given ? '' : '  (default)'}`) };
}

/**
 * The notice of files that do not fit (said before anything runs), with the offer to adapt.
 * @param surface `chat`: a reply in the thread adapts it; `terminal`: `/improve`
 */
export function misfitNotice(e: ProgramMisfit, surface: 'chat' | 'terminal' = 'chat'): ProgramNotice {
  const how = surface === 'chat' ? 'Reply in this thread (e.g. "the region column is now called area")' : 'In the interactive session (`code-agent`), type /improve <what changed> after the run';
  return {
    title: `📎 The files do not fit team program ${programRef(e)}, so nothing was run. ${how} to adapt it: the agent writes a new program from it, which becomes a new version only once someone saves it.`,
    lines: e.misfits,
  };
}

/**
 * How a surface spells the program commands in what it says: `run` runs one (`/program`, `code-agent
 * run --program`), `params` how values follow it, `show` how one is shown, `where` what the
 * conversation is called, `save` how a run is saved there.
 */
export interface ProgramSpelling {
  run: string;
  params: string;
  show: (name: string) => string;
  where: string;
  save: string;
}

/** How chat spells them, with `program` the platform's command (`/program`, `!program`). */
export function chatSpelling(program: string): ProgramSpelling {
  return { run: program, params: '[param=value …]', show: (name) => `${program} ${name} show`, where: 'this channel', save: 'Save a finished run with its "Save as team program" button' };
}

/** The answer of `/programs`: one line per live program (name, current version, who approved it, its parameters). */
export function programsListText(programs: TeamProgram[], spelled: ProgramSpelling): ProgramNotice {
  if (programs.length === 0) return { title: `No team programs in ${spelled.where} yet. ${spelled.save}, then run it with \`${spelled.run} <name>\`.`, lines: [] };
  return {
    title: `📦 Team programs of ${spelled.where} (${programs.length}); run one with \`${spelled.run} <name> ${spelled.params}\`, see one with \`${spelled.show('<name>')}\`:`,
    lines: programs.map((p) => {
      const v = p.versions.at(-1)!;
      const params = v.parameters.length ? ` · ${v.parameters.map((q) => `${q.name}=${pythonLiteral(q.type, q.default)}`).join(' ')}` : '';
      return `${p.name} v${v.version} · approved by ${approvedText(v)}${params} · ${v.request.replace(/\s+/g, ' ').slice(0, 100)}`;
    }),
  };
}

/** The answer of `/program <name> show`: the current version's request, inputs, parameters and code, then every version with who and when. */
export function programShowText(p: TeamProgram): { title: string; sections: ProgramNotice[]; code: string } {
  const v = p.versions.at(-1)!;
  return {
    title: `📦 Team program \`${p.name}\` v${v.version}, approved by ${approvedText(v)} (from run ${v.runId})`,
    sections: [
      { title: 'Request', lines: [v.request] },
      { title: 'Inputs', lines: inputLines(v.inputs) },
      { title: 'Parameters (set with name=value)', lines: v.parameters.length ? v.parameters.map((q) => `${q.name} = ${pythonLiteral(q.type, q.default)}  (${q.type})`) : ['none'] },
      { title: 'Versions', lines: [...p.versions].reverse().map((x) => `v${x.version} · approved by ${approvedText(x)} · run ${x.runId}`) },
    ],
    code: v.code,
  };
}

/**
 * What the thread of a saved run says: who saved which version, its parameters, and how to run it.
 * @param from the run it was saved from: an unconfirmed (⚠️) one is said, with why
 */
export function savedNotice(p: TeamProgram, from?: Pick<Run, 'status' | 'error'>): ProgramNotice {
  const v = p.versions.at(-1)!;
  const params = v.parameters.map((q) => `${q.name}=${pythonLiteral(q.type, q.default)}`);
  // a ⚠️ run may be saved (its saver checked it), but every later run is marked as the team's: said once, here
  const unconfirmed = from?.status === 'unverified' ? ` ⚠️ Its answer was not confirmed (${(from.error ?? 'no check agreed').replace(/\s+/g, ' ').slice(0, 200)}): make sure it is right, since every run of it is marked as the team's.` : '';
  return {
    title: `💾 Saved as team program \`${p.name}\` v${v.version} by ${v.approvedByName || v.approvedBy}.${unconfirmed} Anyone in this channel can run it by name with no LLM call: \`/program ${p.name}${params.length ? ' [param=value …]' : ''}\`${params.length ? '; its parameters and defaults:' : '.'}`,
    lines: params,
  };
}
