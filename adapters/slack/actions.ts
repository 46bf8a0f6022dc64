/**
 * The Re-run and Improve buttons of a run's final message (Block Kit `block_actions`), the
 * Remember and Just this time buttons of the offer after a correction, and the
 * Improve modal's submission (`view_submission`). Bolt acks each within Slack's 3 s; Re-run (`rerun`)
 * and the modal's feedback (`improve`) then go to the pipeline like a thread reply (they wait their
 * turn behind the run, never refused for their busy user). Improve opens the modal with the click's `trigger_id`
 * (valid 3 s: https://docs.slack.dev/surfaces/modals#opening_modals).
 */
import type { App as BoltApp, BlockAction, ButtonAction, ViewSubmitAction } from '@slack/bolt';
import type { SlackContext } from './context.js';
import { refusal, slackRequest } from './incoming.js';
import { fromSlackText } from './incoming-text.js';
import { ephemeralRequester } from './requesters.js';
import { slackAnswers } from './answers.js';
import { IMPROVE_FORM, NOT_REMEMBERED } from '../../src/chat/messages.js';
import { IMPROVE_ACTION, JUST_THIS_TIME_ACTION, REMEMBER_ACTION, RERUN_ACTION } from './action-ids.js';

/** The Improve modal's callback id, and its one input. */
export const IMPROVE_VIEW = 'ca_improve_modal';
const FEEDBACK_BLOCK = 'feedback';
const FEEDBACK_INPUT = 'text';

/** Longest feedback typed in the modal (Slack allows up to 3000 in a plain-text input). */
export const MAX_FEEDBACK_CHARS = 3000;

/** Where a button was clicked: the run's thread. */
interface ThreadOf {
  team: string | undefined;
  channel: string;
  threadTs: string;
}

/** The thread of a click on a message in a run's thread (the message's `thread_ts`). */
function threadOf(body: BlockAction): ThreadOf | undefined {
  const channel = body.channel?.id ?? body.container?.channel_id;
  const threadTs = body.message?.thread_ts ?? body.container?.thread_ts;
  if (!channel || typeof threadTs !== 'string') return undefined;
  return { team: body.team?.id, channel, threadTs };
}

/** Registers the button and modal handlers. */
export function registerActions(app: BoltApp, ctx: SlackContext): void {
  app.action<BlockAction<ButtonAction>>(RERUN_ACTION, async ({ ack, body }) => {
    await ack();
    const where = threadOf(body);
    if (!where) return;
    await onRun(ctx, 'rerun', where, body.user.id, '', `slack:action:${body.trigger_id}`, body.actions[0]?.value);
  });

  // the offer after a correction: Remember goes to the pipeline as a `remember` request on the run
  app.action<BlockAction<ButtonAction>>(REMEMBER_ACTION, async ({ ack, body }) => {
    await ack();
    const where = threadOf(body);
    const runId = body.actions[0]?.value;
    if (!where || !runId) return;
    await onRun(ctx, 'remember', where, body.user.id, '', `slack:action:${body.trigger_id}`, runId);
  });
  app.action<BlockAction<ButtonAction>>(JUST_THIS_TIME_ACTION, async ({ ack, body }) => {
    await ack();
    const where = threadOf(body);
    if (!where) return;
    await ctx.poster.ephemeral(where.channel, body.user.id, slackAnswers.text(NOT_REMEMBERED), where.threadTs, true);
  });

  app.action<BlockAction<ButtonAction>>(IMPROVE_ACTION, async ({ ack, body, client }) => {
    await ack();
    const where = threadOf(body);
    if (!where) return;
    const refused = refusal(ctx.settings, where.channel, body.user.id);
    if (refused) return ctx.poster.ephemeral(where.channel, body.user.id, slackAnswers.text(refused), where.threadTs, true);
    await client.views
      .open({
        trigger_id: body.trigger_id,
        view: {
          type: 'modal',
          callback_id: IMPROVE_VIEW,
          private_metadata: JSON.stringify(where),
          title: { type: 'plain_text', text: IMPROVE_FORM.title },
          submit: { type: 'plain_text', text: IMPROVE_FORM.submit },
          blocks: [
            {
              type: 'input',
              block_id: FEEDBACK_BLOCK,
              label: { type: 'plain_text', text: IMPROVE_FORM.question },
              element: { type: 'plain_text_input', action_id: FEEDBACK_INPUT, multiline: true, max_length: MAX_FEEDBACK_CHARS },
            },
          ],
        },
      })
      .catch((err: unknown) => ctx.log.warn('slack: opening the Improve modal failed:', (err as Error).message));
  });

  app.view<ViewSubmitAction>(IMPROVE_VIEW, async ({ ack, body, view }) => {
    await ack();
    const where = parseWhere(view.private_metadata);
    if (!where) return;
    const feedback = fromSlackText(view.state.values[FEEDBACK_BLOCK]?.[FEEDBACK_INPUT]?.value ?? '').trim();
    await onRun(ctx, 'improve', where, body.user.id, feedback, `slack:event:view-${body.trigger_id}`);
  });
}

/** Hands a request on the run of a thread to the pipeline; the user is answered ephemerally in the thread. */
async function onRun(ctx: SlackContext, kind: 'rerun' | 'improve' | 'remember', where: ThreadOf, user: string, text: string, deliveryId: string, runId?: string): Promise<void> {
  const request = slackRequest(kind, {
    team: where.team,
    channel: where.channel,
    user,
    text,
    deliveryId,
    thread: { ts: where.threadTs, byApp: true },
    ...(runId ? { runId } : {}),
  });
  await ctx.ingress.receive(request, ephemeralRequester(ctx.poster, where.channel, user, where.threadTs));
}

/** The thread a modal was opened for (our own JSON in `private_metadata`); undefined when it is not. */
function parseWhere(raw: string): ThreadOf | undefined {
  try {
    const v = JSON.parse(raw) as Partial<ThreadOf>;
    return typeof v.channel === 'string' && typeof v.threadTs === 'string' ? { team: typeof v.team === 'string' ? v.team : undefined, channel: v.channel, threadTs: v.threadTs } : undefined;
  } catch {
    return undefined;
  }
}
