/**
 * The bodies Slack delivers to an app, built the same way for both transports: form fields of a
 * slash command (HTTP posts them form-encoded; Socket Mode sends them as a `slash_commands`
 * envelope's `payload`) and an Events API `event_callback` (an HTTP JSON body, or an `events_api`
 * envelope's `payload`).
 * envelope's `payload`), and interaction payloads (HTTP: the form field `payload`; Socket Mode: an
 * `interactive` envelope's `payload`): a button click and a modal submission.
 * Slash commands: https://docs.slack.dev/interactivity/implementing-slash-commands#app_command_handling
 * Events API: https://docs.slack.dev/apis/events-api/#callback-field
 * Interactions: https://docs.slack.dev/reference/interaction-payloads/block_actions-payload,
 * https://docs.slack.dev/reference/interaction-payloads/view-interactions-payload#view_submission
 */
import { randomUUID } from 'node:crypto';

/** Fields of a slash command payload (https://docs.slack.dev/interactivity/implementing-slash-commands#app_command_handling). */
export interface SlashFields {
  command: string;
  text: string;
  user_id: string;
  channel_id: string;
  user_name?: string;
  team_id?: string;
  trigger_id?: string;
  response_url?: string;
}

/** Options of {@link eventCallback}. */
export interface EventCallbackOptions {
  /** `event_id`; default a fresh `Ev…` id. */
  eventId?: string;
  /** `team_id` of the callback and its authorization; default `T0001`. */
  teamId?: string;
}

/** Every field Slack sends with a slash command: `fields` over Slack's usual others (fresh `trigger_id`). */
export function slashPayload(fields: SlashFields): Record<string, string> {
  return {
    token: 'legacy-verification-token',
    team_id: 'T0001',
    team_domain: 'fake',
    channel_name: 'general',
    user_name: fields.user_id.toLowerCase(),
    api_app_id: 'A0001',
    trigger_id: `${Date.now()}.${randomUUID()}`,
    response_url: 'http://127.0.0.1:9/unused',
    ...fields,
  };
}

/** An `event_callback` wrapping `event`, as Slack sends it (the bot user is `UBOT`). */
export function eventCallback(event: Record<string, unknown>, options: EventCallbackOptions = {}): Record<string, unknown> {
  const teamId = options.teamId ?? 'T0001';
  return {
    token: 'legacy-verification-token',
    team_id: teamId,
    api_app_id: 'A0001',
    type: 'event_callback',
    event_id: options.eventId ?? `Ev${randomUUID().replace(/-/g, '').slice(0, 10)}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: teamId, user_id: 'UBOT', is_bot: true }],
    event,
  };
}

/** Who clicked where: a button on a message in a thread. */
export interface ClickFields {
  actionId: string;
  value: string;
  user: string;
  channel: string;
  /** The clicked message's ts and its thread's parent ts. */
  messageTs: string;
  threadTs: string;
  teamId?: string;
}

/** A `block_actions` payload for a button click on a message in a thread. */
export function blockActionsPayload(f: ClickFields): Record<string, unknown> {
  const teamId = f.teamId ?? 'T0001';
  return {
    type: 'block_actions',
    token: 'legacy-verification-token',
    api_app_id: 'A0001',
    team: { id: teamId, domain: 'fake' },
    user: { id: f.user, username: f.user.toLowerCase(), team_id: teamId },
    channel: { id: f.channel, name: 'general' },
    container: { type: 'message', message_ts: f.messageTs, channel_id: f.channel, is_ephemeral: false, thread_ts: f.threadTs },
    message: { type: 'message', ts: f.messageTs, thread_ts: f.threadTs, user: 'UBOT', bot_id: 'BBOT' },
    trigger_id: `${Date.now()}.${randomUUID()}`,
    response_url: 'http://127.0.0.1:9/unused',
    actions: [{ type: 'button', action_id: f.actionId, block_id: 'b1', value: f.value, action_ts: String(Date.now() / 1000) }],
  };
}

/** A `view_submission` payload of a modal the app opened (its `callback_id`, `private_metadata` and inputs' values). */
export function viewSubmissionPayload(view: { callback_id: string; private_metadata: string; values: Record<string, Record<string, string>> }, user: string, teamId = 'T0001'): Record<string, unknown> {
  const values = Object.fromEntries(
    Object.entries(view.values).map(([block, inputs]) => [block, Object.fromEntries(Object.entries(inputs).map(([action, value]) => [action, { type: 'plain_text_input', value }]))]),
  );
  return {
    type: 'view_submission',
    token: 'legacy-verification-token',
    api_app_id: 'A0001',
    team: { id: teamId, domain: 'fake' },
    user: { id: user, username: user.toLowerCase(), team_id: teamId },
    trigger_id: `${Date.now()}.${randomUUID()}`,
    view: { id: `V${randomUUID().slice(0, 8)}`, type: 'modal', team_id: teamId, callback_id: view.callback_id, private_metadata: view.private_metadata, state: { values } },
  };
}
