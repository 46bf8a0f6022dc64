/**
 * How a test picks a choice a run's last message offers (src/chat/settle-view.ts: `settle:1`,
 * `approve:up`, `program:save`, `program:new`…) as a person would on each platform: a button on
 * Slack (a `ca_choice:<id>` action, or the feedback element for 👍/👎) and Discord (a
 * `ca:choice:<run>:<id>` custom id), a reaction on Matrix (the message lists key → choice id under
 * CHOICES_KEY). The settle scenarios (settle-chat.test.ts, matrix-driver.ts) and the chat contract's
 * drivers share these.
 */
import type { SlackCall } from '../fakes/slack-api.js';
import type { FakeMessage } from '../fakes/discord-server.js';
import { blockActionsPayload } from '../fakes/slack-payloads.js';
import { CHOICES_KEY } from '../../adapters/matrix/markup.js';
import type { SeenEvent } from '../matrix/harness.js';
import type { MatrixClient } from 'matrix-bot-sdk';

/** One choice of a Slack message, with the action id and value its button sends. */
export interface SlackChoice {
  choice: string;
  actionId: string;
  value: string;
}

type SlackElement = { type: string; action_id: string; value?: string; positive_button?: { value: string }; negative_button?: { value: string } };

/** The choices a Slack message (a `chat.postMessage` call) offers, in order. */
export function slackChoices(call: SlackCall): SlackChoice[] {
  const elements = ((call.args.blocks ?? []) as Array<{ type: string; elements?: SlackElement[] }>)
    .filter((b) => b.type === 'actions' || b.type === 'context_actions')
    .flatMap((b) => b.elements ?? []);
  return elements.flatMap((e): SlackChoice[] => {
    if (e.type === 'feedback_buttons') {
      return [e.positive_button!, e.negative_button!].map((b) => ({ choice: b.value.split('|')[0]!, actionId: e.action_id, value: b.value }));
    }
    return e.action_id.startsWith('ca_choice:') ? [{ choice: e.action_id.slice('ca_choice:'.length), actionId: e.action_id, value: e.value! }] : [];
  });
}

/**
 * The block_actions payload of a click on `choice` of a Slack message in thread `threadTs`.
 * @throws when the message does not offer that choice
 */
export function slackChoicePayload(call: SlackCall, choice: string, user: string, threadTs: string): Record<string, unknown> {
  const button = slackChoices(call).find((b) => b.choice === choice);
  if (!button) throw new Error(`the message offers no choice ${choice} (it offers: ${slackChoices(call).map((b) => b.choice).join(', ')})`);
  const payload = blockActionsPayload({ actionId: button.actionId, value: button.value, user, channel: String(call.args.channel ?? 'C_MAIN'), messageTs: String(call.result?.ts), threadTs });
  // a feedback button's click names its element type and carries the pressed button's value (Bolt's FeedbackButtonsAction)
  if (button.actionId === 'ca_feedback') (payload.actions as Array<{ type: string }>)[0]!.type = 'feedback_buttons';
  return payload;
}

/** The choice buttons of a Discord message: choice id → custom id, in order. */
export function discordChoices(m: FakeMessage): Array<{ choice: string; customId: string }> {
  return (m.components as Array<{ components: Array<{ custom_id: string }> }>)
    .flatMap((row) => row.components)
    .filter((b) => b.custom_id.startsWith('ca:choice:'))
    .map((b) => ({ choice: b.custom_id.split(':').slice(3).join(':'), customId: b.custom_id }));
}

/**
 * The custom id of `choice`'s button on a Discord message.
 * @throws when the message does not offer that choice
 */
export function discordChoiceId(m: FakeMessage, choice: string): string {
  const hit = discordChoices(m).find((b) => b.choice === choice);
  if (!hit) throw new Error(`the message offers no choice ${choice} (it offers: ${discordChoices(m).map((b) => b.choice).join(', ')})`);
  return hit.customId;
}

/** What a Matrix last message offers: reaction key → choice id. */
export function matrixChoices(e: SeenEvent): Array<[key: string, choice: string]> {
  return Object.entries((e.content[CHOICES_KEY] ?? {}) as Record<string, string>);
}

/**
 * Reacts to a Matrix last message with `choice`'s key, as `client` (a person).
 * @throws when the message does not offer that choice
 */
export async function matrixClick(client: MatrixClient, roomId: string, e: SeenEvent, choice: string): Promise<void> {
  const key = matrixChoices(e).find(([, id]) => id === choice)?.[0];
  if (!key) throw new Error(`the message offers no choice ${choice} (it offers: ${matrixChoices(e).map(([, id]) => id).join(', ')})`);
  // a client may send the key with or without U+FE0F (Element's quick 👍 has it): both are the same choice
  const sent = choice === 'approve:up' ? `${key}\ufe0f` : key;
  await client.sendEvent(roomId, 'm.reaction', { 'm.relates_to': { rel_type: 'm.annotation', event_id: e.event_id, key: sent } });
}
