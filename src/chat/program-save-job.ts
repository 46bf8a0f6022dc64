/**
 * The job of a `program_save` request (the "Save as team program" flow, `save program <name>` in
 * a run's thread, Matrix's `!program save <name>`), once for every platform and both modes: the
 * run's answer is saved as a team program (its parameters read in the sandbox, by the agent's
 * programs: no LLM call), and the run's thread is told who saved which version, with its
 * parameters and how to run it. A save that cannot be taken (the run has no answer, a bound, a
 * bad name) is told to the person privately.
 */
import { InputError } from '../config/errors.js';
import type { RunJobDeps } from './run-job.js';
import type { OutgoingPort } from './port.js';
import type { IncomingRequest } from './incoming-port.js';
import { savedNotice } from '../programs/text.js';

/** Runs one `program_save` request's job (see the module comment). Never throws for the person's mistakes; the store's errors escape. */
export async function saveProgramInThread<M, R>(deps: RunJobDeps, port: OutgoingPort<M, R>, request: IncomingRequest): Promise<void> {
  const runId = request.runId;
  if (runId === undefined) return port.tell(request, 'Save a run from its thread: reply there with `save program <name>`.');
  const { conversation } = request.where;
  const who = { id: request.who.userId, ...(request.who.userName ? { name: request.who.userName } : {}) };
  let program;
  try {
    program = await deps.agent.programs.save(conversation, runId, request.text, who);
  } catch (err) {
    if (err instanceof InputError) return port.tell(request, err.message);
    throw err;
  }
  const thread = await port.reopenThread(request, { channel: request.where.channel, ...(request.where.thread !== undefined ? { thread: request.where.thread } : {}), runId });
  const from = await deps.store.getRun(conversation, runId).catch(() => undefined);
  await thread.output.post(thread.markup.notice(savedNotice(program, from))).catch((err: unknown) => deps.onWarning('posting the saved program', err));
}
