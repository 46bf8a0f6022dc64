/**
 * The buttons on a run's messages (Block Kit `block_actions`) and the Improve modal's submission
 * (`view_submission`), each acked by Bolt within Slack's 3 s; what each button means is
 * src/chat/run-actions.ts's. Re-run (`rerun`), Remember
 * (`remember`: the offer after a correction) and the modal's feedback (`improve`) go to the
 * pipeline on the thread's run like a reply (they wait their turn behind the run, never refused for
 * their busy user); a choice — a candidate, "Neither", 👍 or 👎 — goes as a `settle` request (access
 * first: a click by someone who may not use the app is refused privately). Just this time is
 * answered at once; Improve opens the modal with the click's `trigger_id` (valid 3 s:
 * https://docs.slack.dev/surfaces/modals#opening_modals).
 */
import type { App as BoltApp, BlockAction, ViewSubmitAction } from '@slack/bolt';
import type { RequestKind } from '../../src/chat/incoming-port.js';
import { IMPROVE_FORM } from '../../src/chat/messages.js';
import { actionMeaning, RUN_ACTIONS } from '../../src/chat/run-actions.js';
import { fromSlackText, receive, refusal, type SlackContext } from './incoming.js';
import { slackAnswers } from './requesters.js';
import { CHOICE_ACTION_PREFIX, FEEDBACK_ACTION, runActionId } from './renderer.js';

/** The Improve modal's callback id, and its one input. */
export const IMPROVE_VIEW = 'ca_improve_modal';
const FEEDBACK = { block: 'feedback', input: 'text' };

/** Longest feedback typed in the modal (Slack allows up to 3000 in a plain-text input). */
export const MAX_FEEDBACK_CHARS = 3000;

/** Where a button was clicked: its channel, and the run's thread (the message's `thread_ts`). */
interface ThreadOf {
  team: string | undefined;
  channel: string;
  threadTs: string | undefined;
}

/** The view's action a click is (a run action of src/chat/run-actions.ts, or a choice id) and the run it acts on, read back from the button's action id and value; undefined when it is none of ours. */
export function actionOfClick(action: { action_id: string; value?: string }): { id: string; runId: string } | undefined {
  if (!action.value) return undefined;
  if (action.action_id.startsWith(CHOICE_ACTION_PREFIX)) return { id: action.action_id.slice(CHOICE_ACTION_PREFIX.length), runId: action.value };
  const run = RUN_ACTIONS.find((a) => runActionId(a) === action.action_id);
  if (run) return { id: run, runId: action.value };
  const bar = action.value.lastIndexOf('|');
  return action.action_id === FEEDBACK_ACTION && bar > 0 ? { id: action.value.slice(0, bar), runId: action.value.slice(bar + 1) } : undefined;
}

/** The place of a click. */
function placeOf(body: BlockAction): ThreadOf | undefined {
  const channel = body.channel?.id ?? body.container?.channel_id;
  const threadTs = body.message?.thread_ts ?? body.container?.thread_ts;
  return channel ? { team: body.team?.id, channel, threadTs: typeof threadTs === 'string' ? threadTs : undefined } : undefined;
}

/** A request on the run of a thread; the user is answered ephemerally in the thread. */
function onRun(ctx: SlackContext, kind: RequestKind, where: ThreadOf, user: { id: string; userName?: string }, text: string, deliveryId: string, runId?: string) {
  const thread = where.threadTs ? { thread: { ts: where.threadTs, byApp: true } } : {};
  return receive(ctx, kind, { team: where.team, channel: where.channel, user: user.id, ...(user.userName ? { userName: user.userName } : {}), text, deliveryId, ...thread, ...(runId ? { runId } : {}) });
}

/** Registers the button and modal handlers. */
export function registerClicks(app: BoltApp, ctx: SlackContext): void {
  const answer = (where: ThreadOf, user: string, plain: string) => ctx.poster.ephemeral(where.channel, user, slackAnswers.text(plain), where.threadTs);
  // every button on a run: acked first; a choice is settled on the run its button names (in the thread when it was clicked in one), the others act in a run's thread only
  app.action<BlockAction>(/^ca_/, async ({ ack, body }) => {
    await ack();
    const click = actionOfClick(body.actions[0] as { action_id: string; value?: string });
    const where = placeOf(body);
    if (!click || !where) return;
    const meaning = actionMeaning(click.id);
    const settle = 'request' in meaning && meaning.request === 'settle';
    if (!settle && !where.threadTs) return;
    const userName = (body.user as { name?: string; username?: string }).username ?? (body.user as { name?: string }).name;
    if ('request' in meaning) return void (await onRun(ctx, meaning.request, where, { id: body.user.id, ...(settle && userName ? { userName } : {}) }, meaning.text, `slack:action:${body.trigger_id}`, click.runId));
    if ('answer' in meaning) return void (await answer(where, body.user.id, meaning.answer));
    const refused = refusal(ctx.settings, where.channel, body.user.id);
    if (refused) return void (await answer(where, body.user.id, refused));
    await openImproveModal(ctx, body.trigger_id, where);
  });
  app.view<ViewSubmitAction>(IMPROVE_VIEW, async ({ ack, body, view }) => {
    await ack();
    const where = parseWhere(view.private_metadata);
    const feedback = fromSlackText(view.state.values[FEEDBACK.block]?.[FEEDBACK.input]?.value ?? '').trim();
    if (where) await onRun(ctx, 'improve', where, body.user, feedback, `slack:event:view-${body.trigger_id}`);
  });
}

/** Improve: asks for the feedback in a modal, opened with the click's `trigger_id`; the modal carries the click's thread. */
async function openImproveModal(ctx: SlackContext, triggerId: string, where: ThreadOf): Promise<void> {
  const input = { type: 'plain_text_input', action_id: FEEDBACK.input, multiline: true, max_length: MAX_FEEDBACK_CHARS } as const;
  await ctx.poster.client.views
    .open({
      trigger_id: triggerId,
      view: {
        type: 'modal',
        callback_id: IMPROVE_VIEW,
        private_metadata: JSON.stringify(where),
        title: { type: 'plain_text', text: IMPROVE_FORM.title },
        submit: { type: 'plain_text', text: IMPROVE_FORM.submit },
        blocks: [{ type: 'input', block_id: FEEDBACK.block, label: { type: 'plain_text', text: IMPROVE_FORM.question }, element: input }],
      },
    })
    .catch((err: unknown) => ctx.log.warn('slack: opening the Improve modal failed:', (err as Error).message));
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
