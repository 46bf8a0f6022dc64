/**
 * The app's DM pane (Slack's agent view, and the assistant view it replaces:
 * https://docs.slack.dev/ai/developing-ai-apps): when a person opens a conversation there
 * (`assistant_thread_started`) or moves to another channel with it open
 * (`assistant_thread_context_changed`), the pane suggests prompts: the requests of the team
 * programs of the channel they are viewing when it has any, else {@link DEFAULT_PROMPTS}. A message
 * in the pane's thread that is not a reply in a run's thread starts a run there (replies.ts), and
 * the thread is titled from its request (outgoing.ts). Needs the `assistant:write` scope and the
 * agent feature (manifest.yml); where Slack refuses, nothing is suggested and runs work as in a DM.
 */
import type { App as BoltApp } from '@slack/bolt';
import type { SlackContext } from './context.js';
import { conversationId } from './incoming.js';

/** Prompts of a pane with no team programs to suggest (Slack shows up to 4). */
export const DEFAULT_PROMPTS = [
  { title: 'Plot a function', message: 'plot sin(x) and cos(x) from 0 to 2π and attach the picture' },
  { title: 'Summarise a CSV', message: 'summarise the attached CSV: its rows, its columns and the sum of each numeric column' },
  { title: 'Compute an answer', message: 'list the prime numbers below 100 and print their sum' },
];

/** Slack's limits on suggested prompts: at most 4, a title's length (ours, kept short). */
const PROMPTS_MAX = 4;
const TITLE_MAX = 60;
const MESSAGE_MAX = 1000;

/** The pane's `assistant_thread` (https://docs.slack.dev/reference/events/assistant_thread_started). */
interface PaneThread {
  channel_id?: string;
  thread_ts?: string;
  context?: { channel_id?: string; team_id?: string };
}

/**
 * What the pane suggests: the requests of the viewed channel's team programs (newest versions), or
 * {@link DEFAULT_PROMPTS} when it has none or cannot be read.
 */
export async function suggestedPrompts(ctx: Pick<SlackContext, 'app'>, team: string | undefined, viewed: string | undefined): Promise<{ title: string; message: string }[]> {
  const programs = viewed ? await ctx.app.store.programs?.list(conversationId(team, viewed)).catch(() => []) : [];
  if (!programs?.length) return DEFAULT_PROMPTS;
  return programs.slice(0, PROMPTS_MAX).map((p) => ({
    title: `Like ${p.name}`.slice(0, TITLE_MAX),
    message: (p.versions.at(-1)?.request ?? p.name).slice(0, MESSAGE_MAX),
  }));
}

/** Registers the pane's listeners. */
export function registerAssistant(app: BoltApp, ctx: SlackContext): void {
  const suggest = async (thread: PaneThread | undefined, team: string | undefined) => {
    if (!thread?.channel_id || !thread.thread_ts) return;
    const prompts = await suggestedPrompts(ctx, thread.context?.team_id ?? team, thread.context?.channel_id);
    await ctx.poster.client.assistant.threads
      .setSuggestedPrompts({ channel_id: thread.channel_id, thread_ts: thread.thread_ts, title: 'Ask for code, or try one of these', prompts })
      .catch((err: unknown) => ctx.log.warn('slack: suggesting prompts failed:', (err as Error).message));
  };
  for (const name of ['assistant_thread_started', 'assistant_thread_context_changed'] as const) {
    app.event(name, async ({ event, body }) => {
      await suggest((event as { assistant_thread?: PaneThread }).assistant_thread, (body as { team_id?: string }).team_id);
    });
  }
}
