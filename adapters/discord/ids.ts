/**
 * Names the adapter gives to things: dedupe keys and component custom ids (conversation ids: incoming.ts).
 */
import { runActionOf } from '../../src/chat/run-actions.js';

/** Dedupe key of an interaction (Discord may deliver it again after a gateway resume). */
export const interactionEventId = (id: string): string => `discord:interaction:${id}`;
/** Dedupe key of a message. */
export const messageEventId = (id: string): string => `discord:message:${id}`;

const PREFIX = 'ca';

/** The action of the Improve modal's custom id: its submission is the feedback. */
export const FEEDBACK_ACTION = 'feedback';

/** Whether an action id is written in a custom id as its own name: a run action (src/chat/run-actions.ts) or {@link FEEDBACK_ACTION}. */
const ownName = (id: string) => id === FEEDBACK_ACTION || runActionOf(id) !== undefined;

/**
 * A component custom id (Discord allows at most 100 characters): `ca:<action>:<runId>` for a run
 * action or the Improve modal, `ca:choice:<runId>:<choice id>` for a choice (src/chat/settle-view.ts).
 * Source: https://discord.com/developers/docs/interactions/message-components#custom-id
 */
export function customId(id: string, runId: string): string {
  return (ownName(id) ? `${PREFIX}:${id}:${runId}` : `${PREFIX}:choice:${runId}:${id}`).slice(0, 100);
}

/** Parses {@link customId}: the action id (a run action, {@link FEEDBACK_ACTION} or a choice id) and the run; undefined for ids that are not ours. */
export function parseCustomId(custom: string): { id: string; runId: string } | undefined {
  const [prefix, action = '', runId, ...rest] = custom.split(':');
  if (prefix !== PREFIX || !runId) return undefined;
  if (action === 'choice') return rest.length ? { id: rest.join(':'), runId } : undefined;
  return ownName(action) ? { id: action, runId } : undefined;
}

/** The text input of the Improve modal. */
export const FEEDBACK_INPUT_ID = 'feedback';
