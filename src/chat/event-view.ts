/**
 * How agent events become chat messages, for every platform: each event is turned, in one
 * exhaustive `switch`, into neutral views (a progress step, code, a result, notices, an auto-fix,
 * the end). A platform only formats these views for its markup. A new kind of agent event fails
 * the type check here until it is given its case.
 */
import type { AgentEvent } from '../agent/run/index.js';
import type { AttemptTrigger, Run } from '../history/types.js';
import type { ExecutionResult } from '../history/execution.js';
import {
  agreementNotice,
  checksNotices,
  profileNotice,
  queuedNotice,
  toolCallsNotice,
  repeatNotice,
  reviewNotice,
  tablePreviewNotices,
  workspaceNotice,
  workspaceRefusedNotice,
  workspaceReplacedNotice,
  type Notice,
} from './verification.js';
import { memoryUsedParts } from '../memory/used-text.js';
import { helperNotice } from '../memory/helper-text.js';
import { misfitNotice, programStartNotice } from '../programs/text.js';

/** One thing to show in a run's thread. */
export type EventView =
  /**
   * The progress line (edited in place): what the agent does now, for which attempt. Attempt numbers
   * count across the turns of a run; `lastAttempt` is the highest this call may reach ("Attempt 3/5").
   */
  | { view: 'progress'; step: 'writing' | 'running'; attempt: number; lastAttempt: number }
  /** The progress line: checks are being derived from the request (a call as long as writing code). */
  | { view: 'progress'; step: 'checks' }
  /** Code still being written (the platform throttles its edits). */
  | { view: 'code_partial'; attempt: number; code: string }
  /** An attempt's code, or why the reply had none. */
  | { view: 'code'; attempt: number; trigger: AttemptTrigger; code: string; error?: string }
  /** An execution result (its output, checks and artifacts). */
  | { view: 'result'; attempt: number; lastAttempt: number; result: ExecutionResult }
  /** Verification and data notices, each shown as a title and lines in a code block. */
  | { view: 'notices'; notices: Notice[] }
  /**
   * An auto-fix is made: the error that caused it. `retry` counts from 1 to `maxRetries` within the
   * call; `attempt` is the attempt it makes, counted across the run's turns, of at most `lastAttempt`.
   */
  | { view: 'improving'; retry: number; maxRetries: number; attempt: number; lastAttempt: number; reason: string }
  /** The call's first answer, shown before its verdict: marked as not yet confirmed until the end settles it. */
  | { view: 'answer'; attempt: number }
  /** The run ended (`failed`: with a failure event). */
  | { view: 'end'; run: Run; failed: boolean };

/** Turns one call's agent events into views; keeps what later events need (each attempt's trigger). */
export class EventViews {
  private readonly triggers = new Map<number, AttemptTrigger>();
  /** The highest attempt index this call may reach, as the latest `generating` event said (a re-run: its one attempt). */
  private lastAttempt = 0;

  /** The views of one event, in the order they are shown (often one; none for nothing to show). */
  of(event: AgentEvent): EventView[] {
    switch (event.type) {
      case 'generating':
        this.triggers.set(event.attempt, event.trigger);
        this.lastAttempt = Math.max(event.lastAttempt, event.attempt);
        return [{ view: 'progress', step: 'writing', attempt: event.attempt, lastAttempt: this.lastAttempt }];
      case 'code_delta':
        return [{ view: 'code_partial', attempt: event.attempt, code: event.code }];
      case 'generated':
        return [{ view: 'code', attempt: event.attempt, trigger: this.triggers.get(event.attempt) ?? 'requirement', code: event.code, ...(event.error ? { error: event.error } : {}) }];
      case 'deriving_checks':
        return [{ view: 'progress', step: 'checks' }];
      case 'executing':
        if (!this.triggers.has(event.attempt)) this.triggers.set(event.attempt, 'rerun');
        this.lastAttempt = Math.max(this.lastAttempt, event.attempt);
        return [{ view: 'progress', step: 'running', attempt: event.attempt, lastAttempt: this.lastAttempt }];
      case 'executed': {
        const previews = tablePreviewNotices(event.result);
        return [{ view: 'result', attempt: event.attempt, lastAttempt: Math.max(this.lastAttempt, event.attempt), result: event.result }, ...(previews.length ? [{ view: 'notices' as const, notices: previews }] : [])];
      }
      case 'tool_calls':
        return event.calls.length ? [{ view: 'notices', notices: [toolCallsNotice(event)] }] : [];
      case 'improving':
        this.lastAttempt = Math.max(this.lastAttempt, event.lastAttempt);
        return [{ view: 'improving', retry: event.retry, maxRetries: event.maxRetries, attempt: event.attempt, lastAttempt: event.lastAttempt, reason: event.reason }];
      case 'checks':
        return [{ view: 'notices', notices: checksNotices(event) }];
      case 'reviewed':
        return [{ view: 'notices', notices: [reviewNotice(event)] }];
      case 'profiled':
        return [{ view: 'notices', notices: [profileNotice(event)] }];
      case 'agreement':
        return [{ view: 'notices', notices: [agreementNotice(event)] }];
      case 'answer':
        return [{ view: 'answer', attempt: event.attempt }];
      case 'repeated':
        return [{ view: 'notices', notices: [repeatNotice(event)] }];
      case 'workspace':
        return event.files.length ? [{ view: 'notices', notices: [workspaceNotice(event)] }] : [];
      case 'workspace_replaced':
        return [{ view: 'notices', notices: [workspaceReplacedNotice(event)] }];
      case 'workspace_refused':
        return [{ view: 'notices', notices: [workspaceRefusedNotice(event)] }];
      case 'queued':
        return [{ view: 'notices', notices: [queuedNotice(event)] }];
      case 'memory_used':
        return [{ view: 'notices', notices: [{ title: "📌 used from this channel's memory:", lines: memoryUsedParts(event) }] }];
      case 'definition_helper':
        return [{ view: 'notices', notices: [helperNotice(event)] }];
      case 'program':
        return [{ view: 'notices', notices: [programStartNotice(event)] }];
      case 'program_misfit':
        return [{ view: 'notices', notices: [misfitNotice(event, 'chat')] }];
      case 'done':
        return [{ view: 'end', run: event.run, failed: false }];
      case 'failed':
        return [{ view: 'end', run: event.run, failed: true }];
      default:
        return unrendered(event);
    }
  }
}

/** Compile-time proof that every agent event has a case above. */
function unrendered(event: never): never {
  throw new Error(`agent event not rendered in chat: ${JSON.stringify(event)}`);
}
