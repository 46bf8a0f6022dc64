/**
 * The buttons on a run's messages (Block Kit `block_actions`) and the Improve modal's submission
 * (`view_submission`), each acked by Bolt within Slack's 3 s. Re-run (`rerun`), Remember
 * (`remember`: the offer after a correction) and the modal's feedback (`improve`) go to the
 * pipeline on the thread's run like a reply (they wait their turn behind the run, never refused for
 * their busy user); a choice — a candidate, "Neither", 👍 or 👎 — goes as a `settle` request (access
 * first: a click by someone who may not use the app is refused privately). Just this time is
 * answered at once; Improve opens the modal with the click's `trigger_id` (valid 3 s:
 * https://docs.slack.dev/surfaces/modals#opening_modals).
 */
import type { App as BoltApp, BlockAction, ViewSubmitAction } from '@slack/bolt';
import type { RequestKind } from '../../src/chat/incoming-port.js';
import { IMPROVE_FORM, NOT_REMEMBERED } from '../../src/chat/messages.js';
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

/** The choice and run of a click: from a choice button's action id and value, or a feedback button's value. */
export function choiceOfClick(action: { action_id: string; value?: string }): { choice: string; runId: string } | undefined {
  if (action.action_id.startsWith(CHOICE_ACTION_PREFIX) && action.value) return { choice: action.action_id.slice(CHOICE_ACTION_PREFIX.length), runId: action.value };
  if (action.action_id !== FEEDBACK_ACTION || !action.value) return undefined;
  const bar = action.value.lastIndexOf('|');
  return bar > 0 ? { choice: action.value.slice(0, bar), runId: action.value.slice(bar + 1) } : undefined;
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
  /** A click on a message in a run's thread (none elsewhere), acked first. */
  const inThread = (handle: (where: ThreadOf & { threadTs: string }, body: BlockAction, value: string | undefined) => Promise<unknown>) =>
    async ({ ack, body }: { ack: () => Promise<void>; body: BlockAction }) => {
      await ack();
      const where = placeOf(body);
      if (where?.threadTs) await handle({ ...where, threadTs: where.threadTs }, body, (body.actions[0] as { value?: string } | undefined)?.value);
    };
  const answer = (where: ThreadOf, user: string, plain: string) => ctx.poster.ephemeral(where.channel, user, slackAnswers.text(plain), where.threadTs);
  app.action<BlockAction>(runActionId('rerun'), inThread((where, body, runId) => onRun(ctx, 'rerun', where, body.user, '', `slack:action:${body.trigger_id}`, runId)));
  app.action<BlockAction>(runActionId('remember'), inThread(async (where, body, runId) => runId && onRun(ctx, 'remember', where, body.user, '', `slack:action:${body.trigger_id}`, runId)));
  app.action<BlockAction>(runActionId('just-this-time'), inThread((where, body) => answer(where, body.user.id, NOT_REMEMBERED)));
  app.action<BlockAction>(runActionId('improve'), inThread(async (where, body) => {
    const refused = refusal(ctx.settings, where.channel, body.user.id);
    if (refused) return answer(where, body.user.id, refused);
    const input = { type: 'plain_text_input', action_id: FEEDBACK.input, multiline: true, max_length: MAX_FEEDBACK_CHARS } as const;
    await ctx.poster.client.views
      .open({
        trigger_id: body.trigger_id,
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
  }));
  app.view<ViewSubmitAction>(IMPROVE_VIEW, async ({ ack, body, view }) => {
    await ack();
    const where = parseWhere(view.private_metadata);
    const feedback = fromSlackText(view.state.values[FEEDBACK.block]?.[FEEDBACK.input]?.value ?? '').trim();
    if (where) await onRun(ctx, 'improve', where, body.user, feedback, `slack:event:view-${body.trigger_id}`);
  });
  // a choice: settled on the run its button names, in the thread when it was clicked in one
  const onChoice = async ({ ack, body }: { ack: () => Promise<void>; body: BlockAction }) => {
    await ack();
    const action = body.actions[0] as { action_id: string; value?: string } | undefined;
    const click = action && choiceOfClick(action);
    const where = placeOf(body);
    const userName = (body.user as { name?: string; username?: string }).username ?? (body.user as { name?: string }).name;
    if (click && where) await onRun(ctx, 'settle', where, { id: body.user.id, ...(userName ? { userName } : {}) }, click.choice, `slack:action:${body.trigger_id}`, click.runId);
  };
  app.action<BlockAction>(new RegExp(`^${CHOICE_ACTION_PREFIX}`), onChoice);
  app.action<BlockAction>(FEEDBACK_ACTION, onChoice);
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
