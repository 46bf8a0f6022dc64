/**
 * Slash commands: the catalogue's requests to the pipeline (src/chat/command-catalog.ts: `/run`,
 * `/generate`, `/history`, `/show`, `/remember`, `/memory`, `/programs`, `/program`, `/schedule`,
 * `/schedules`, `/unschedule`) and `/usage` (admins), under the names of `slack.commands`. Each is
 * acked within Slack's 3 s with what only the requester should see (requesters.ts); work happens after.
 */
import type { App as BoltApp } from '@slack/bolt';
import { REQUEST_COMMANDS } from '../../src/chat/command-catalog.js';
import { usageRefusal, usageReply } from '../../src/chat/usage-view.js';
import { budgetLimits } from '../../src/app/app.js';
import { fromSlackText, receive, type SlackContext } from './incoming.js';
import { answerCommand, ephemeral } from './requesters.js';
import { slackAnswers } from './requesters.js';

/**
 * The commands deduplicated by their `trigger_id`: those that may start or change something. Reading
 * twice, or forgetting twice, is harmless (`/history`, `/show`, `/memory`, `/programs`…).
 */
const DEDUPED = new Set(['run', 'generate', 'remember', 'program', 'schedule']);

/** Registers the commands on a Bolt app, under the names of `slack.commands`. */
export function registerCommands(app: BoltApp, ctx: SlackContext): void {
  const names = ctx.settings.commands;
  for (const kind of REQUEST_COMMANDS) {
    app.command(names[kind], async ({ command, ack, respond }) => {
      const request = {
        team: command.team_id,
        channel: command.channel_id,
        user: command.user_id,
        userName: command.user_name,
        text: fromSlackText(command.text).trim(),
        deliveryId: DEDUPED.has(kind) && command.trigger_id ? `slack:command:${command.trigger_id}` : undefined,
        responseUrl: command.response_url,
      };
      await answerCommand(ack, respond, (requester) => receive(ctx, kind, request, requester));
    });
  }
  app.command(names.usage, async ({ command, ack, respond }) => {
    const refused = usageRefusal(ctx.settings.admins, { userId: command.user_id });
    if (refused) return ack(ephemeral(slackAnswers.text(refused)));
    await answerCommand(ack, respond, async (requester) => requester.answer(slackAnswers.memory(await usageReply(ctx.app.usage, budgetLimits(ctx.app.config), command.text))));
  });
}
