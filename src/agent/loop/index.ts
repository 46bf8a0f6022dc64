/**
 * The loop, the agent's entry (`Agent`, `agent.ts`; its options in `agent-options.ts`, a run's
 * start in `new-run.ts`): a turn (lease, workspace, deadline: `turn.ts`, `deadline.ts`), the steps
 * of a run (`steps.ts`) and the fix loop (`fix-loop.ts`), the conversation told to the model after
 * each attempt (`conversation.ts`), team programs' runs, settling and approving, and the metrics
 * read from a turn's events. Imports every other room.
 */

export { Agent, InputError } from './agent.js';
export type { AgentOptions } from './agent-options.js';
export { buildMessages } from './conversation.js';
export { TurnObserver } from './run-observer.js';
export { personName } from './settle.js';
export type { SettleOutcome } from './settle.js';
export type { CallOptions, VerifyMode } from '../run/index.js';
