/**
 * The run's shared parts, which every room of the agent uses: the events it emits (`events.ts`), a
 * call's options and a turn's (`call-options.ts`, `step-options.ts`), run ids, the turn lease, the
 * time budget, the turn's workspace and what of an execution's output the history keeps.
 * Imports no other room.
 */

export { emit } from './call-options.js';
export type { CallOptions, VerifyMode } from './call-options.js';
export type { AgentEvent, AgentEventListener, AgreementEvent, ChecksEvent, MemoryUsedEvent, ProfiledEvent, QueuedEvent, RepeatedEvent, ReviewedEvent, ToolCallsEvent, WorkspaceEvent, WorkspaceRefusedEvent, WorkspaceReplacedEvent } from './events.js';
export { newRunId, safeSegment } from './ids.js';
export { keepFullOutput, wholeStdout } from './kept-output.js';
export { publicReason } from './public-error.js';
export { ADOPT_TWO_AGAINST_ONE, ERROR_MAX_CHARS, REPEAT_TEMPERATURE, TWO_AGAINST_ONE_ANSWER, newAttempt } from './step-options.js';
export type { StepsOptions, TurnOptions } from './step-options.js';
export { budgetStop } from './time-budget.js';
export { TURN_LEASE_MS, takeTurn } from './turn-lease.js';
export { keepWritten, openWorkspace, workspaceSection } from './workspace-turn.js';
