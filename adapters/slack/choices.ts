/**
 * The choice buttons of a run's last message (Block Kit `block_actions`): a candidate's button or
 * "Neither" (`ca_choice:<choice id>`, the value is the run id), and the 👍/👎 feedback buttons
 * (`ca_feedback`, the pressed button's value is `<choice id>|<run id>`). Bolt acks each within
 * Slack's 3 s; the choice then goes to the pipeline as a `settle` request (access first: a click by
 * someone who may not use the app is refused privately), in either mode.
 */
import type { App as BoltApp, BlockAction } from '@slack/bolt';
import type { SlackContext } from './context.js';
import { slackRequest } from './incoming.js';
import { ephemeralRequester } from './requesters.js';
import { CHOICE_ACTION_PREFIX, FEEDBACK_ACTION } from './action-ids.js';

/** The choice and run of a click: from a choice button's action id and value, or a feedback button's value. */
export function choiceOfClick(action: { action_id: string; value?: string }): { choice: string; runId: string } | undefined {
  if (action.action_id.startsWith(CHOICE_ACTION_PREFIX) && action.value) return { choice: action.action_id.slice(CHOICE_ACTION_PREFIX.length), runId: action.value };
  if (action.action_id !== FEEDBACK_ACTION || !action.value) return undefined;
  const bar = action.value.lastIndexOf('|');
  return bar > 0 ? { choice: action.value.slice(0, bar), runId: action.value.slice(bar + 1) } : undefined;
}

/** Registers the choice and feedback button handlers. */
export function registerChoices(app: BoltApp, ctx: SlackContext): void {
  const onClick = async ({ ack, body }: { ack: () => Promise<void>; body: BlockAction }) => {
    await ack();
    const action = body.actions[0] as { action_id: string; value?: string } | undefined;
    const click = action ? choiceOfClick(action) : undefined;
    const channel = body.channel?.id ?? body.container?.channel_id;
    const threadTs = body.message?.thread_ts ?? body.container?.thread_ts;
    if (!click || !channel) return;
    const user = body.user.id;
    const request = slackRequest('settle', {
      team: body.team?.id,
      channel,
      user,
      ...(userNameOf(body.user) ? { userName: userNameOf(body.user) } : {}),
      text: click.choice,
      deliveryId: `slack:action:${body.trigger_id}`,
      ...(typeof threadTs === 'string' ? { thread: { ts: threadTs, byApp: true } } : {}),
      runId: click.runId,
    });
    await ctx.ingress.receive(request, ephemeralRequester(ctx.poster, channel, user, typeof threadTs === 'string' ? threadTs : undefined));
  };
  app.action<BlockAction>(new RegExp(`^${CHOICE_ACTION_PREFIX}`), onClick);
  app.action<BlockAction>(FEEDBACK_ACTION, onClick);
}

/** The clicking user's name as the payload gives it (`username`, else `name`), if any. */
function userNameOf(user: { name?: string; username?: string }): string | undefined {
  return user.username ?? user.name;
}
