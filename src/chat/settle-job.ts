/**
 * The job of a `settle` request (a candidate button, "Neither", 👍 or 👎), once for every platform
 * and both modes: the choice is taken on the run (src/agent/loop/settle.ts: no LLM call), and the run's
 * thread is told what it did — who confirmed which candidate, with that candidate's output and
 * files as the answer, then a new last message (👍/👎 now) — or, for "Neither" and 👎, asked
 * what is wrong (a reply improves the run, as any reply does). A choice that cannot be taken
 * (settled meanwhile, no such candidate) is told to the person privately.
 */
import { InputError } from '../config/errors.js';
import type { RunJobDeps } from './run-job.js';
import type { OutgoingPort } from './port.js';
import type { IncomingRequest } from './incoming-port.js';
import { outcomeText, parseChoice } from './settle-view.js';
import { workspaceLine } from './workspace-view.js';
import { SAVE_HINT } from './program-commands.js';

/** Runs one `settle` request's job (see the module comment). Never throws for the person's mistakes; the store's errors escape. */
export async function settleInThread<M, R>(deps: RunJobDeps, port: OutgoingPort<M, R>, request: IncomingRequest): Promise<void> {
  const action = parseChoice(request.text.trim());
  const runId = request.runId;
  if (!action || runId === undefined) return port.tell(request, 'That is not a choice this app offers.');
  // "Save as team program": the name is asked as a reply in the run's thread (every platform takes one)
  if (action.kind === 'save') return port.tell(request, SAVE_HINT);
  // "Write a new program" is admitted as an improve turn (ingress.ts); one queued before that is said so
  if (action.kind === 'new_program') return port.tell(request, 'Click "Write a new program" again: it starts an improve turn of the run.');
  const { conversation } = request.where;
  const who = { id: request.who.userId, ...(request.who.userName ? { name: request.who.userName } : {}) };
  let outcome;
  try {
    outcome =
      action.kind === 'settle' ? await deps.agent.settle(conversation, runId, action.choice, who) : await deps.agent.approve(conversation, runId, action.verdict, who);
  } catch (err) {
    if (err instanceof InputError) return port.tell(request, err.message);
    throw err;
  }
  const { run, chosen } = outcome;
  const thread = await port.reopenThread(request, { channel: request.where.channel, ...(request.where.thread !== undefined ? { thread: request.where.thread } : {}), runId });
  const post = (msg: M) => thread.output.post(msg).catch((err: unknown) => deps.onWarning('posting the choice', err));
  await post(thread.markup.notice({ title: outcomeText(action, outcome), lines: [] }));
  if (chosen) {
    const answer = run.attempts.at(-1)!;
    for (const msg of thread.markup.result({ view: 'result', attempt: answer.index, lastAttempt: answer.index, result: answer.result! })) await post(msg);
    const workspace = await deps.agent.workspace(run).then(workspaceLine, () => undefined);
    await post(thread.markup.final(run, workspace));
    await thread.ended(run, undefined);
  }
}
