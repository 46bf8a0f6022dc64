/**
 * What every surface shows of a run's candidates and of people's verdicts, platform-neutral (the
 * terminal, Slack, Discord, Matrix format these): the candidates of an unconfirmed run with how
 * each read the request, the choices a person has (a button, a reaction or a key per choice:
 * {@link choicesOf}), and what a choice or a 👍/👎 did. Choice ids are plain strings that travel
 * in a button's value: `settle:<n>`, `settle:neither`, `approve:up`, `approve:down`, and
 * `program:save` (the "Save as team program" button: the click asks for the name as a reply in the
 * run's thread, which every platform takes: src/chat/program-commands.ts).
 */
import type { Run } from '../history/types.js';
import type { Candidate } from '../history/candidates.js';
import { boundLine } from '../text/cut.js';
import { personName, type SettleOutcome } from '../agent/loop/index.js';
import type { Notice } from './verification.js';
import { NEW_PROGRAM_LABEL } from '../programs/text.js';

/** One choice offered on a finished run. */
export interface Choice {
  /** Travels in the button's value (see the module comment). */
  id: string;
  /** The button's label (our own words). */
  label: string;
  /** Shown as the main choice (the leading candidate). */
  primary?: boolean;
}

/** A parsed choice id. */
export type ChoiceAction =
  | { kind: 'settle'; choice: number | 'neither' }
  | { kind: 'approve'; verdict: 'up' | 'down' }
  | { kind: 'save' }
  /** "Write a new program": a run that ran a team program found for its request takes the usual path instead. */
  | { kind: 'new_program' };

/** The choice id of the "Save as team program" button. */
export const SAVE_PROGRAM_CHOICE = 'program:save';

/** The choice id of the "Write a new program" button of a run that ran a team program found for its request. */
export const NEW_PROGRAM_CHOICE = 'program:new';

/**
 * What the "Write a new program" button asks of the agent: an improve turn of the run, whose
 * requirement is the person's request (the team program's code is the attempt it improves on).
 */
export const NEW_PROGRAM_FEEDBACK =
  'The team program that was run does not answer this request. Write a new program for the request as it is stated, from the input files, without reusing the team program.';

/** Whether a run's answer is a team program found for its request in other words (it offers "Write a new program"). */
export function ranMatchedProgram(run: Pick<Run, 'program' | 'attempts'>): boolean {
  const p = run.program;
  const last = run.attempts.at(-1);
  return p?.matched === true && last !== undefined && (last.keptFrom ?? last.index) === p.attempt;
}

/** Longest output line of a candidate in the notice, in characters. */
const OUTPUT_LINE_CHARS = 300;

/** Whether a run waits for a person to pick among its candidates (unverified, two or more, not settled on one). */
export function awaitsSettlement(run: Pick<Run, 'status' | 'candidates' | 'settlement'>): boolean {
  return run.status === 'unverified' && (run.candidates?.length ?? 0) >= 2 && (run.settlement === undefined || run.settlement.choice === 'neither');
}

/** Who backs a candidate, in words. */
function backing(c: Candidate): string {
  if (c.from === 'attempt') return c.programs.length ? `attempt ${c.attempt} and ${c.programs.length} independent program${c.programs.length === 1 ? '' : 's'}` : `attempt ${c.attempt}`;
  return c.programs.length === 1 ? 'an independent program' : `${c.programs.length} independent programs (they agree with each other)`;
}

/** The candidates of a run awaiting settlement, one block each: number, who printed it, its reading, its output (one line). */
export function candidatesNotice(run: Run): Notice | undefined {
  if (!awaitsSettlement(run)) return undefined;
  const lines = run.candidates!.flatMap((c) => [
    `[${c.n}] ${c.leads ? '(leads) ' : ''}${backing(c)}`,
    `    read it as: ${c.reading}`,
    `    printed: ${boundLine(c.output, OUTPUT_LINE_CHARS) || '(nothing)'}${c.artifacts.length ? ` · files: ${c.artifacts.map((a) => a.name).join(', ')}` : ''}`,
  ]);
  return { title: '⚖️ The answers differ. Which one is right? Pick it (no new LLM call), or "Neither" and say what is wrong.', lines };
}

/**
 * The choices a finished run offers: one per candidate and "Neither" while it awaits settlement;
 * 👍/👎 and "Save as team program" on every run whose answer ran (a team program's run that
 * failed, or whose files did not fit, offers none of those).
 */
export function choicesOf(run: Run): Choice[] {
  const out: Choice[] = [];
  if (awaitsSettlement(run)) {
    for (const c of run.candidates!) out.push({ id: `settle:${c.n}`, label: `${c.n} is right`, ...(c.n === 1 ? { primary: true } : {}) });
    out.push({ id: 'settle:neither', label: 'Neither' });
  }
  if (run.status === 'success' || run.status === 'unverified') out.push({ id: 'approve:up', label: '👍' }, { id: 'approve:down', label: '👎' });
  if ((run.status === 'success' || run.status === 'unverified') && run.attempts.at(-1)?.result?.success) out.push({ id: SAVE_PROGRAM_CHOICE, label: '💾 Save as team program' });
  if (ranMatchedProgram(run)) out.push({ id: NEW_PROGRAM_CHOICE, label: NEW_PROGRAM_LABEL });
  return out;
}

/** Reads a choice id; undefined when it is not one. */
export function parseChoice(id: string): ChoiceAction | undefined {
  const settle = /^settle:(\d{1,3}|neither)$/.exec(id);
  if (settle) return { kind: 'settle', choice: settle[1] === 'neither' ? 'neither' : Number(settle[1]) };
  if (id === SAVE_PROGRAM_CHOICE) return { kind: 'save' };
  if (id === NEW_PROGRAM_CHOICE) return { kind: 'new_program' };
  const approve = /^approve:(up|down)$/.exec(id);
  return approve ? { kind: 'approve', verdict: approve[1] as 'up' | 'down' } : undefined;
}

/** The line a settled run's status carries: `confirmed by Ann (candidate 2)`; undefined when not settled on a candidate. */
export function confirmedBy(run: Pick<Run, 'settlement' | 'status'>): string | undefined {
  const s = run.settlement;
  if (run.status !== 'success' || !s || s.choice === 'neither') return undefined;
  return `confirmed by ${personName(s.by)} (candidate ${s.choice})`;
}

/**
 * What to tell the thread after a choice or a verdict (plain text, our own words plus a person's name).
 * @param surface `chat`: a thread, whose reply improves the run; `terminal`: the session, which asks
 *   for what is wrong itself and keeps the terminal's own memory
 */
export function outcomeText(action: Extract<ChoiceAction, { kind: 'settle' | 'approve' }>, outcome: SettleOutcome, surface: 'chat' | 'terminal' = 'chat'): string {
  const who = (p: { id: string; name?: string }) => personName(p);
  const whose = surface === 'chat' ? "this channel's" : "the terminal's";
  const example = outcome.example;
  const kept = outcome.helpers?.length ? ` Kept with their definitions for the next runs: ${outcome.helpers.map((h) => `\`from team import ${h.name}\` (${h.definitionId})`).join(', ')}.` : '';
  const memory = (!example.added ? '' : example.already ? ` It is in ${whose} memory as an approved example already (${example.id}).` : ` Added to ${whose} memory as an approved example (${example.id}).`) + kept;
  const askReply = surface === 'chat' ? ' Reply in this thread with what is wrong, and the agent will improve it.' : '';
  if (action.kind === 'settle') {
    const by = outcome.run.settlement!.by;
    if (action.choice === 'neither') return `✍️ ${who(by)} says neither answer is right.${askReply}`;
    return `✅ Confirmed by ${who(by)}: candidate ${action.choice} is the answer (${outcome.chosen?.reading ?? ''}).${memory}`;
  }
  const by = outcome.run.approvals!.at(-1)!.by;
  if (action.verdict === 'up') return `👍 Approved by ${who(by)}.${memory}`;
  return `👎 ${who(by)} says something is wrong.${askReply}`;
}
