/**
 * Slash commands: `/run`, `/generate`, `/history`, `/show`, `/usage` (admins; names from `slack.commands`). Each is acked within Slack's 3 s
 * (https://docs.slack.dev/interactivity/implementing-slash-commands#responding_to_commands); refusals and
 * answers only the user should see go in the ack as an ephemeral response, and work happens after.
 */
import type { App as BoltApp, SlashCommand, RespondFn, AckFn, RespondArguments } from '@slack/bolt';
import { refusal } from './access.js';
import { conversationId, type SlackContext } from './context.js';
import { historyText, showText } from './history-view.js';
import { escapeMrkdwn, section } from './mrkdwn.js';
import { fromSlackText } from './incoming-text.js';
import { admitCommand } from './enqueue.js';
import { notAdminText, usageAnswer } from '../../src/chat/usage-view.js';
import { budgetLimits } from '../../src/app/app.js';

/** Longest a command waits for the store before acking empty and answering via response_url, in ms. */
export const ANSWER_WITHIN_MS = 2000;

type Ack = AckFn<string | RespondArguments>;

function usage(kind: 'run' | 'generate', name: string): string {
  return kind === 'run'
    ? `Usage: \`${name} <what the program should do>\`, e.g. \`${name} plot a sine wave\`. Reply in the thread to improve the result.`
    : `Usage: \`${name} <what the program should do>\`: writes the code without running it.`;
}

/** Longest `/usage` answer, in characters (a section holds 3000). */
const USAGE_MAX_CHARS = 2900;

/** Registers the commands on a Bolt app, under the names of `slack.commands`. */
export function registerCommands(app: BoltApp, ctx: SlackContext): void {
  const names = ctx.settings.commands;
  for (const kind of ['run', 'generate'] as const) {
    app.command(names[kind], async ({ command, ack }) => startCommand(ctx, kind, command, ack));
  }
  app.command(names.history, async ({ command, ack, respond }) => {
    const refused = refusal(ctx.settings, command.channel_id, command.user_id);
    if (refused) return ack(ephemeral(refused));
    const conv = conversationId(command.team_id, command.channel_id);
    await answer(ack, respond, async () => ephemeral(await historyText(ctx.core.store, conv, ctx.settings.historyLimit, names)));
  });
  app.command(names.usage, async ({ command, ack, respond }) => {
    // an access list of its own: slack.admin_users (empty: nobody)
    if (!ctx.settings.adminUsers.includes(command.user_id)) return ack(ephemeral(escapeMrkdwn(notAdminText('slack.admin_users'))));
    await answer(ack, respond, async () =>
      ephemeral(escapeMrkdwn(await usageAnswer(ctx.core.usage, budgetLimits(ctx.core.config), command.text, USAGE_MAX_CHARS))),
    );
  });
  app.command(names.show, async ({ command, ack, respond }) => {
    const refused = refusal(ctx.settings, command.channel_id, command.user_id);
    if (refused) return ack(ephemeral(refused));
    const conv = conversationId(command.team_id, command.channel_id);
    await answer(ack, respond, async () => ephemeral(await showText(ctx.core, conv, command.text, names)));
  });
}

async function startCommand(ctx: SlackContext, kind: 'run' | 'generate', command: SlashCommand, ack: Ack): Promise<void> {
  const refused = refusal(ctx.settings, command.channel_id, command.user_id);
  const requirement = fromSlackText(command.text).trim();
  if (!refused && !requirement) return ack(ephemeral(usage(kind, ctx.settings.commands[kind])));
  const result = await admitCommand(ctx, kind, command, requirement, refused);
  if (result.outcome === 'duplicate') return ack();
  await ack(result.text === undefined ? undefined : ephemeral(escapeMrkdwn(result.text)));
}

/** An ephemeral response; `text` is mrkdwn (already safe). */
export function ephemeral(text: string): RespondArguments {
  return { response_type: 'ephemeral', text, blocks: [section(text)] };
}

/** Acks with the answer if it is ready in time, else acks empty and sends it via response_url. */
async function answer(ack: Ack, respond: RespondFn, produce: () => Promise<RespondArguments>): Promise<void> {
  const work = produce().catch((err: unknown) => ephemeral(`Could not read the history: ${(err as Error).message}`));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ANSWER_WITHIN_MS);
  });
  const ready = await Promise.race([work, late]);
  clearTimeout(timer);
  if (ready) return ack(ready);
  await ack();
  await respond(await work);
}
