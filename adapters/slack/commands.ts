/**
 * Slash commands: `/run`, `/generate`, `/history`, `/show`, `/remember`, `/memory`, `/programs`, `/program`,
 * `/schedule`, `/schedules`, `/unschedule` (requests to the pipeline) and `/usage` (admins), under
 * the names of `slack.commands`. Each is acked within Slack's 3 s with what only the requester
 * should see (requesters.ts); work happens after.
 */
import type { App as BoltApp, SlashCommand } from '@slack/bolt';
import type { RequestKind } from '../../src/chat/incoming-port.js';
import { notAdminText, usageReply, usageUnreadable } from '../../src/chat/usage-view.js';
import { budgetLimits } from '../../src/app/app.js';
import type { SlackContext } from './context.js';
import { slackRequest } from './incoming.js';
import { fromSlackText } from './incoming-text.js';
import { answerCommand, ephemeral } from './requesters.js';
import { slackAnswers } from './answers.js';

/** The commands that are requests to the pipeline. */
const REQUEST_COMMANDS = ['run', 'generate', 'history', 'show', 'remember', 'memory', 'programs', 'program', 'schedule', 'schedules', 'unschedule'] as const satisfies readonly RequestKind[];

/** Registers the commands on a Bolt app, under the names of `slack.commands`. */
export function registerCommands(app: BoltApp, ctx: SlackContext): void {
  const names = ctx.settings.commands;
  for (const kind of REQUEST_COMMANDS) {
    app.command(names[kind], async ({ command, ack, respond }) =>
      answerCommand(ack, respond, (requester) => ctx.ingress.receive(commandRequest(kind, command), requester)),
    );
  }
  app.command(names.usage, async ({ command, ack, respond }) => {
    // an access list of its own: slack.admin_users (empty: nobody)
    if (!ctx.settings.adminUsers.includes(command.user_id)) return ack(ephemeral(slackAnswers.text(notAdminText('slack.admin_users'))));
    await answerCommand(ack, respond, async (requester) => {
      const reply = await usageReply(ctx.app.usage, budgetLimits(ctx.app.config), command.text).catch(usageUnreadable);
      await requester.answer(slackAnswers.memory(reply));
    });
  });
}

/**
 * A slash command as a request (`/history`, `/show`, `/memory` and `/programs` are not
 * deduplicated: reading twice, or forgetting twice, is harmless; `/program` is, since it may run a
 * program or remove one).
 */
function commandRequest(kind: (typeof REQUEST_COMMANDS)[number], command: SlashCommand) {
  const starts = kind === 'run' || kind === 'generate' || kind === 'remember' || kind === 'program' || kind === 'schedule';
  return slackRequest(kind, {
    team: command.team_id,
    channel: command.channel_id,
    user: command.user_id,
    userName: command.user_name,
    text: fromSlackText(command.text).trim(),
    deliveryId: starts && command.trigger_id ? `slack:command:${command.trigger_id}` : undefined,
    responseUrl: command.response_url,
  });
}
