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

/** The notice at the start of a program's run: which version, approved by whom, no LLM call; the parameters as it runs with them. */
export function programStartNotice(e: ProgramStart): ProgramNotice {
  return {
    title: `▶️ Running team program ${programRef(e)}, approved by ${approvedText(e)}: the saved code, no LLM call.`,
    lines: e.params.map((p) => `${p.name} = ${p.value}${p.given ? '' : '  (default)'}`),
  };
}

/**
 * The notice of files that do not fit (said before anything runs), with the offer to adapt.
 * @param surface `chat`: a reply in the thread adapts it; `terminal`: `/improve`
 */
export function misfitNotice(e: ProgramMisfit, surface: 'chat' | 'terminal' = 'chat'): ProgramNotice {
  const how = surface === 'chat' ? 'Reply in this thread (e.g. "the region column is now called area")' : 'Type /improve <what changed>';
  return {
    title: `📎 The files do not fit team program ${programRef(e)}, so nothing was run. ${how} to adapt it: the agent writes a new program from it, which becomes a new version only once someone saves it.`,
    lines: e.misfits,
  };
}

/** The answer of `/programs`: one line per live program (name, current version, who approved it, its parameters). */
export function programsListText(programs: TeamProgram[], run: string): ProgramNotice {
  if (programs.length === 0) return { title: `No team programs in this channel yet. Save a finished run with its "Save as team program" button, then run it with \`${run} <name>\`.`, lines: [] };
  return {
    title: `📦 Team programs of this channel (${programs.length}); run one with \`${run} <name> [param=value …]\`, see one with \`${run} <name> show\`:`,
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

/** What the thread of a saved run says: who saved which version, its parameters, and how to run it. */
export function savedNotice(p: TeamProgram): ProgramNotice {
  const v = p.versions.at(-1)!;
  const params = v.parameters.map((q) => `${q.name}=${pythonLiteral(q.type, q.default)}`);
  return {
    title: `💾 Saved as team program \`${p.name}\` v${v.version} by ${v.approvedByName || v.approvedBy}. Anyone in this channel can run it by name with no LLM call: \`/program ${p.name}${params.length ? ' [param=value …]' : ''}\`${params.length ? '; its parameters and defaults:' : '.'}`,
    lines: params,
  };
}
