/**
 * One agent call of a chat job, for every platform: the call runs with the platform's listener;
 * when it throws instead of ending its run (the store refused a write, a bug), the run still ends
 * (`endThrownRun`) and the failure is said in one wording: an {@link InputError}'s own words, else
 * `internal error: …`, without credentials, on one bounded line that cannot open a code block.
 */
import { InputError } from '../config/errors.js';
import type { HistoryStore, Run } from '../history/types.js';
import { boundLine } from '../text/cut.js';
import { redactUrls } from '../text/redact.js';
import { neutraliseFences } from './format.js';
import { endThrownRun } from './run-end.js';

/** Longest failure shown, in characters. */
const FAILURE_MAX_CHARS = 500;

/** What a thrown error says in a thread (see the module comment). */
export function thrownReason(err: unknown): string {
  const said = err instanceof InputError ? err.message : `internal error: ${(err as Error)?.message ?? String(err)}`;
  return neutraliseFences(boundLine(redactUrls(said), FAILURE_MAX_CHARS));
}

/** How a call ended: its run (when it returned one), else the failure, and a note when the history could not record the end. */
export interface AgentCallOutcome {
  run: Run | undefined;
  failure: string | undefined;
  /** Plain text for the thread: the history could not record how the run ended. */
  note: string | undefined;
}

/**
 * Runs a call; never throws.
 * @param runId the run's id as known so far (before the call: an existing run's; after: the one its events named)
 * @param settle awaited after a throw, before the run is ended (the platform's pending posts, its thread link)
 * @param onInternalError told of an error that is not an {@link InputError} (a bug, the store)
 */
export async function callAgent(options: {
  store: HistoryStore;
  conversation: string;
  call: () => Promise<Run>;
  runId: () => string | undefined;
  settle: () => Promise<unknown>;
  onInternalError: (err: unknown) => void;
}): Promise<AgentCallOutcome> {
  try {
    return { run: await options.call(), failure: undefined, note: undefined };
  } catch (err) {
    if (!(err instanceof InputError)) options.onInternalError(err);
    const failure = thrownReason(err);
    await options.settle();
    return { run: undefined, failure, note: await endThrownRun(options.store, options.conversation, options.runId(), failure) };
  }
}
