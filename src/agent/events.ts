/**
 * Typed events the agent emits while it works; adapters render them. The agent never prints.
 */
import type { ExecutionResult } from '../sandbox/types.js';
import type { AttemptTrigger, Run } from '../history/types.js';

/** Emitted before an LLM call. `attempt` is the 1-based index of the attempt being made. */
export interface GeneratingEvent {
  type: 'generating';
  runId: string;
  attempt: number;
  trigger: AttemptTrigger;
}
/** Emitted when code was extracted from the reply (or `error` says why none could be). */
export interface GeneratedEvent {
  type: 'generated';
  runId: string;
  attempt: number;
  code: string;
  error?: string;
}
/** Emitted before the sandbox runs an attempt's code. */
export interface ExecutingEvent {
  type: 'executing';
  runId: string;
  attempt: number;
}
/** Emitted with each execution result. */
export interface ExecutedEvent {
  type: 'executed';
  runId: string;
  attempt: number;
  result: ExecutionResult;
}
/** Emitted when a failure is fed back to the LLM. `retry` counts from 1 to `maxRetries`. */
export interface ImprovingEvent {
  type: 'improving';
  runId: string;
  retry: number;
  maxRetries: number;
  /** One line naming the failure (e.g. `NameError: name 'x' is not defined`). */
  reason: string;
}
/** Emitted once when a run ends well (or, for `generate`, when code exists). */
export interface DoneEvent {
  type: 'done';
  run: Run;
}
/** Emitted once when a run ends in failure; `reason` is one line. */
export interface FailedEvent {
  type: 'failed';
  run: Run;
  reason: string;
}

export type AgentEvent =
  | GeneratingEvent
  | GeneratedEvent
  | ExecutingEvent
  | ExecutedEvent
  | ImprovingEvent
  | DoneEvent
  | FailedEvent;

/** Receives agent events. Must not throw; if it does, the error is ignored. */
export type AgentEventListener = (event: AgentEvent) => void;
