/**
 * The tool interface: a tool is a capability a program may call through the host-side broker (an
 * allowed HTTP host, a SQL source). It is named, configured (`tools.<name>` in config.yaml),
 * allowed per conversation, described to the model, served by the broker for the length of one
 * execution, limited (calls, bytes, time) and recorded: every call is a {@link ToolCallRecord}.
 */

export type { ToolCallRecord } from '../history/execution.js';
import type { ToolCallRecord } from '../history/execution.js';

/** A broker route's answer to the program. */
export interface RouteAnswer {
  /** HTTP status sent to the program (200, or 4xx/5xx with `body.error` saying why). */
  status: number;
  /** JSON body sent to the program. */
  body: unknown;
  /** The call's record (undefined: nothing to record). */
  record?: ToolCallRecord;
}

/** Serves one broker route (`POST /<route>` with a JSON body) for one execution. */
export type RouteHandler = (payload: unknown, signal: AbortSignal) => Promise<RouteAnswer>;

/**
 * A tool as the agent sees it: its name, whether a conversation may use it, and the text telling
 * the model what that conversation may use and how.
 */
export interface Tool {
  /** The tool's name (`http`, `sql`), the key of its config section. */
  readonly name: string;
  /** True when the conversation may use the tool (at least one host or source). */
  allows(conversationId: string): boolean;
  /** What the model is told for that conversation, or undefined when it may not use the tool. */
  describe(conversationId: string, signal?: AbortSignal): Promise<string | undefined>;
  /** Broker routes for one execution in that conversation (none for a tool served otherwise, like http). */
  routes?(conversationId: string): Record<string, RouteHandler>;
}

/** The tools as the agent uses them (the Toolbox, src/tools/toolbox.ts). */
export interface AgentTools {
  /** The broker for an execution in the conversation, or undefined when it may use no tool. */
  brokerFor(conversationId: string): ToolBrokerStarter | undefined;
  /** What the model is told about the conversation's tools ('' when none). */
  describe(conversationId: string, signal?: AbortSignal): Promise<string>;
}

/** Hands the executor a broker for one execution (the executor starts and stops it). */
export interface ToolBrokerStarter {
  /**
   * Starts serving in `dir` (a host folder the sandbox sees at its tools path): `broker.sock`, and
   * `ca.pem` for https. Resolves once listening.
   */
  start(dir: string): Promise<RunningBroker>;
}

/** A broker serving one execution. */
export interface RunningBroker {
  /** Stops serving (open calls are cut) and returns the calls made, in order. Never throws. */
  stop(): Promise<ToolCallRecord[]>;
}
