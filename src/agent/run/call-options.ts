/**
 * The options of one agent call and the verification modes: types the agent and its steps share
 * (in their own file, so that the steps do not import the agent that imports them).
 */
import type { InputFile } from '../../sandbox/types.js';
import type { AgentEvent, AgentEventListener } from './events.js';
import type { RunChat } from '../../history/types.js';

/**
 * How the agent checks a result beyond the exit code: `checks` derived from the requirement and run
 * with the program, an LLM `review` of a run that succeeded, `both`, or `off`.
 */
export type VerifyMode = 'off' | 'checks' | 'review' | 'both';

/** Options of one agent call. */
export interface CallOptions {
  /** Who asked (platform user id or name). */
  requestedBy?: string;
  /**
   * Files given with this call (e.g. chat attachments): added to the run's workspace (a file of a
   * name already there replaces it), which every execution's work dir gets whole.
   */
  inputFiles?: InputFile[];
  /** Cancels the current LLM call or execution; the run ends as failed with "cancelled". */
  signal?: AbortSignal;
  /** Receives the events of this call. */
  onEvent?: AgentEventListener;
  /** Where a new run lives in chat, stored with it. */
  chat?: RunChat;
  /**
   * The id a new run (run, generate) is stored under; default a fresh one (`newRunId`). A chat
   * links its thread to the run under this id before the call, so a reply finds it at once.
   */
  runId?: string;
  /** Overrides the agent's `maxRetries` for this call. */
  maxRetries?: number;
}

/** Sends an event to the call's listener; a listener's error never breaks the run. */
export function emit(options: CallOptions, event: AgentEvent): void {
  try {
    options.onEvent?.(event);
  } catch {
    /* a listener's error must not break the run */
  }
}
