/**
 * `/history` and `/show` answers, as mrkdwn built from the store (every stored text escaped).
 */
import type { SlackCommandNames } from './settings.js';
import type { HistoryStore, Run } from '../../src/history/types.js';
import { STATUS_ICON } from '../../src/chat/format.js';
import { fencedSection, inlineText } from './mrkdwn.js';
import { messageLink } from './context.js';
import { finalStatus, whoAsked } from './views.js';

const DEFAULT_NAMES = { run: '/run', history: '/history' };

/** `/history`: the channel's newest runs — when, who, requirement, status, link. */
export async function historyText(store: HistoryStore, conv: string, limit: number, names: Pick<SlackCommandNames, 'run'> = DEFAULT_NAMES): Promise<string> {
  const runs = await store.listRuns(conv, limit);
  if (runs.length === 0) return `No runs in this channel yet. Start one with \`${names.run} <what the program should do>\`.`;
  const lines = runs.map((run) => {
    const when = slackDate(run.createdAt);
    const link = run.meta?.channel && run.meta.threadTs ? ` · <${messageLink(run.meta.channel, run.meta.threadTs)}|thread>` : '';
    return `• ${when} · *${whoAsked(run)}* · ${inlineText(run.requirement, 120)} · ${shortStatus(run)} · \`${run.id}\`${link}`;
  });
  let text = `*Recent runs in this channel* (newest first):\n${lines.join('\n')}`;
  while (text.length > 2900 && lines.length > 1) {
    lines.pop();
    text = `*Recent runs in this channel* (newest first):\n${lines.join('\n')}`;
  }
  return text;
}

/**
 * `/show [run id | thread link | thread ts]`: the latest code of that run (default: the channel's newest run).
 */
export async function showText(store: HistoryStore, conv: string, arg: string, names: Pick<SlackCommandNames, 'run' | 'history'> = DEFAULT_NAMES): Promise<string> {
  const run = await findRun(store, conv, arg.trim());
  if (!run) {
    return arg.trim()
      ? `No run found for that id or thread in this channel. \`${names.history}\` lists the runs.`
      : `No runs in this channel yet. Start one with \`${names.run} <what the program should do>\`.`;
  }
  const attempt = [...run.attempts].reverse().find((a) => a.code);
  const head = `*${inlineText(run.requirement, 300)}* (\`${run.id}\`, ${finalStatus(run)})`;
  if (!attempt) return `${head}\nThis run has no code yet.`;
  const shown = fencedSection(attempt.code, `${head}\nLatest code (attempt ${attempt.index}):`, 2900, 200);
  return shown.truncated ? `${shown.text}\n_(cut; the full file is in the run's thread)_` : shown.text;
}

async function findRun(store: HistoryStore, conv: string, arg: string): Promise<Run | undefined> {
  if (!arg) return (await store.listRuns(conv, 1))[0];
  const permalink = /\/p(\d{10})(\d{6})/.exec(arg);
  const ts = permalink ? `${permalink[1]}.${permalink[2]}` : /^\d{10}\.\d{6}$/.test(arg) ? arg : undefined;
  if (ts) return store.findRunByThread(conv, ts);
  if (/^[a-z0-9-]{1,40}$/i.test(arg)) return store.getRun(conv, arg);
  return undefined;
}

function shortStatus(run: Run): string {
  return `${STATUS_ICON[run.status]} ${run.status}`;
}

/** A date Slack shows in the reader's time zone (https://docs.slack.dev/messaging/formatting-message-text#date-formatting). */
function slackDate(iso: string): string {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  if (!Number.isFinite(seconds)) return 'unknown time';
  return `<!date^${seconds}^{date_short_pretty} {time}|${iso.slice(0, 16).replace('T', ' ')} UTC>`;
}
