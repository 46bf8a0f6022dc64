/**
 * How agent events become chat messages, for every platform: each event is turned, in one
 * exhaustive `switch`, into neutral views (a progress step, code, a result, notices, an auto-fix,
 * the end). A platform only formats these views for its markup. A new kind of agent event fails
 * the type check here until it is given its case.
 */
import type { AgentEvent } from '../agent/events.js';
import type { AttemptTrigger, Run } from '../history/types.js';
import type { ExecutionResult } from '../sandbox/types.js';
import {
  agreementNotice,
  checksNotices,
  profileNotice,
  repeatNotice,
  reviewNotice,
  tablePreviewNotices,
  type Notice,
} from './verification.js';

/** One thing to show in a run's thread. */
export type EventView =
  /** The progress line (edited in place): what the agent does now, for which attempt (absolute index). */
  | { view: 'progress'; step: 'writing' | 'running'; attempt: number }
  /** The progress line: checks are being derived from the request (a call as long as writing code). */
  | { view: 'progress'; step: 'checks' }
  /** Code still being written (the platform throttles its edits). */
  | { view: 'code_partial'; attempt: number; code: string }
  /** An attempt's code, or why the reply had none. */
  | { view: 'code'; attempt: number; trigger: AttemptTrigger; code: string; error?: string }
  /** An execution result (its output, checks and artifacts). */
  | { view: 'result'; attempt: number; result: ExecutionResult }
  /** Verification and data notices, each shown as a title and lines in a code block. */
  | { view: 'notices'; notices: Notice[] }
  /** An auto-fix is made: the error that caused it. `retry` counts from 1 to `maxRetries`. */
  | { view: 'improving'; retry: number; maxRetries: number; reason: string }
  /** The run ended (`failed`: with a failure event). */
  | { view: 'end'; run: Run; failed: boolean };

/** Turns one call's agent events into views; keeps what later events need (each attempt's trigger). */
export class EventViews {
  private readonly triggers = new Map<number, AttemptTrigger>();

  /** The views of one event, in the order they are shown (often one; none for nothing to show). */
  of(event: AgentEvent): EventView[] {
    switch (event.type) {
      case 'generating':
        this.triggers.set(event.attempt, event.trigger);
        return [{ view: 'progress', step: 'writing', attempt: event.attempt }];
      case 'code_delta':
        return [{ view: 'code_partial', attempt: event.attempt, code: event.code }];
      case 'generated':
        return [{ view: 'code', attempt: event.attempt, trigger: this.triggers.get(event.attempt) ?? 'requirement', code: event.code, ...(event.error ? { error: event.error } : {}) }];
      case 'deriving_checks':
        return [{ view: 'progress', step: 'checks' }];
      case 'executing':
        if (!this.triggers.has(event.attempt)) this.triggers.set(event.attempt, 'rerun');
        return [{ view: 'progress', step: 'running', attempt: event.attempt }];
      case 'executed': {
        const previews = tablePreviewNotices(event.result);
        return [{ view: 'result', attempt: event.attempt, result: event.result }, ...(previews.length ? [{ view: 'notices' as const, notices: previews }] : [])];
      }
      case 'improving':
        return [{ view: 'improving', retry: event.retry, maxRetries: event.maxRetries, reason: event.reason }];
      case 'checks':
        return [{ view: 'notices', notices: checksNotices(event) }];
      case 'reviewed':
        return [{ view: 'notices', notices: [reviewNotice(event)] }];
      case 'profiled':
        return [{ view: 'notices', notices: [profileNotice(event)] }];
      case 'agreement':
        return [{ view: 'notices', notices: [agreementNotice(event)] }];
      case 'repeated':
        return [{ view: 'notices', notices: [repeatNotice(event)] }];
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
