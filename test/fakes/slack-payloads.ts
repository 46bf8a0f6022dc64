/**
 * The bodies Slack delivers to an app, built the same way for both transports: form fields of a
 * slash command (HTTP posts them form-encoded; Socket Mode sends them as a `slash_commands`
 * envelope's `payload`) and an Events API `event_callback` (an HTTP JSON body, or an `events_api`
 * envelope's `payload`).
 * Slash commands: https://docs.slack.dev/interactivity/implementing-slash-commands#app_command_handling
 * Events API: https://docs.slack.dev/apis/events-api/#callback-field
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
