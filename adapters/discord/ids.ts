/**
 * Names the adapter gives to things: dedupe keys and component custom ids (conversation ids: incoming.ts).
 */
import { RUN_ACTIONS, type RunAction } from '../../src/chat/run-actions.js';

/** Dedupe key of an interaction (Discord may deliver it again after a gateway resume). */
export const interactionEventId = (id: string): string => `discord:interaction:${id}`;
/** Dedupe key of a message. */
export const messageEventId = (id: string): string => `discord:message:${id}`;

/** What a button or modal on a run does: a run action (src/chat/run-actions.ts), the Improve modal's submission, or a choice. */
export type ComponentAction = RunAction | 'feedback' | 'choice';

const ACTIONS: readonly ComponentAction[] = [...RUN_ACTIONS, 'feedback'];

const PREFIX = 'ca';

/**
 * A component custom id, `ca:<action>:<runId>` (Discord allows at most 100 characters).
 * Source: https://discord.com/developers/docs/interactions/message-components#custom-id
 */
export function customId(action: ComponentAction, runId: string, choice?: string): string {
  return `${PREFIX}:${action}:${runId}${choice !== undefined ? `:${choice}` : ''}`.slice(0, 100);
}

/** Parses {@link customId}; undefined for ids that are not ours. `choice`: a choice button's choice id (src/chat/settle-view.ts). */
export function parseCustomId(id: string): { action: ComponentAction; runId: string; choice?: string } | undefined {
  const [prefix, action, runId, ...rest] = id.split(':');
  if (prefix !== PREFIX || !runId) return undefined;
  if (action === 'choice') return rest.length ? { action, runId, choice: rest.join(':') } : undefined;
  if (!ACTIONS.includes(action as ComponentAction)) return undefined;
  return { action: action as ComponentAction, runId };
}

/** The text input of the Improve modal. */
export const FEEDBACK_INPUT_ID = 'feedback';
