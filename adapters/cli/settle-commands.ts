/**
 * Settling and approving in the terminal (the session's `/pick`, `/approve`, `/reject`, the
 * question after a run that ended with candidates, and `code-agent run`'s on a terminal): the same
 * choices as the chat buttons (src/chat/settle-view.ts), made by the local user, no LLM call.
 */
import type { Agent } from '../../src/agent/loop/index.js';
import type { Run } from '../../src/history/types.js';
import type { Person } from '../../src/history/candidates.js';
import { InputError } from '../../src/config/errors.js';
import { candidatesNotice, outcomeText, parseChoice, type ChoiceAction } from '../../src/chat/settle-view.js';
import { terminalUser } from './terminal-user.js';

/**
 * The terminal's user, as a run records who settled or approved it: the same id as `/remember` and
 * `code-agent memory` record (`terminal:<login>`), shown by the login name.
 */
export function terminalPerson(): Person {
  const id = terminalUser();
  return { id, name: id.replace(/^terminal:/, '') || id };
}

/** The candidates of a run awaiting settlement and how to choose, as lines; empty when it awaits none. */
export function candidateLines(run: Run): string[] {
  const notice = candidatesNotice(run);
  if (!notice) return [];
  const ns = run.candidates!.map((c) => c.n);
  return [`[Agent] ${notice.title}`, ...notice.lines, `Which is right? Type ${ns.join(', ')} or n (neither); Enter leaves it for later (/pick <n>).`];
}

/** The question asked while a choice is awaited. */
export const CHOICE_PROMPT = 'which is right? > ';

/** Whether a typed line is a choice ({@link typedChoice} reads it) rather than a request typed ahead. */
export function isTypedChoice(text: string): boolean {
  return /^\s*(?:\d{1,3}|n|neither|none)\s*$/i.test(text);
}

/**
 * Reads a typed choice: a candidate number, `n`/`neither`, or (for approvals) nothing else.
 * @throws {InputError} when it is neither
 */
export function typedChoice(text: string): ChoiceAction {
  const t = text.trim().toLowerCase();
  const action = parseChoice(t === 'n' || t === 'neither' || t === 'none' ? 'settle:neither' : `settle:${t}`);
  if (!action) throw new InputError(`"${text.trim()}" is not a choice: type a candidate's number, or n for neither`);
  return action;
}

/**
 * Applies a choice or a verdict to the run and says what it did (its output and files on a choice).
 * @returns the run as stored now, and whether a reply is wanted (`neither`, 👎: it improves the run)
 * @throws {InputError} saying why the choice cannot be taken
 */
export async function applyChoice(agent: Agent, run: Run, action: ChoiceAction, print: (line: string) => void): Promise<{ run: Run; wantsReply: boolean }> {
  if (action.kind === 'save') {
    print('[Agent] Save this run as a team program with /program save <name>.');
    return { run, wantsReply: false };
  }
  if (action.kind === 'new_program') {
    print('[Agent] Type /improve write a new program, to have the agent write one for the request instead of the team program.');
    return { run, wantsReply: false };
  }
  const who = terminalPerson();
  const outcome =
    action.kind === 'settle' ? await agent.settle(run.conversationId, run.id, action.choice, who) : await agent.approve(run.conversationId, run.id, action.verdict, who);
  print(`[Agent] ${outcomeText(action, outcome, 'terminal')}`);
  if (outcome.chosen) {
    print(outcome.chosen.output.trimEnd());
    for (const a of outcome.chosen.artifacts) print(`[Agent] file: ${a.name} (${a.path})`);
  }
  const wantsReply = (action.kind === 'settle' && action.choice === 'neither') || (action.kind === 'approve' && action.verdict === 'down');
  return { run: outcome.run, wantsReply };
}
