/**
 * `/history` and `/show` answers, as mrkdwn built from the store (every stored text escaped).
 */
import type { SlackCommandNames } from './settings.js';
import type { HistoryStore, Run } from '../../src/history/types.js';
import { STATUS_ICON } from '../../src/chat/format.js';
import { escapeMrkdwn, fencedSection, inlineText } from './mrkdwn.js';
import type { Agent } from '../../src/agent/agent.js';
import { removeFileText, workspaceListing } from '../../src/chat/workspace-view.js';
import { messageLink } from './context.js';
import { finalStatus, whoAsked } from './views.js';
import { chatOf } from '../../src/chat/run-chat.js';

const DEFAULT_NAMES = { run: '/run', history: '/history', show: '/show' };

/** `/history`: the channel's newest runs — when, who, requirement, status, link. */
export async function historyText(store: HistoryStore, conv: string, limit: number, names: Pick<SlackCommandNames, 'run'> = DEFAULT_NAMES): Promise<string> {
  const runs = await store.listRuns(conv, limit);
  if (runs.length === 0) return `No runs in this channel yet. Start one with \`${names.run} <what the program should do>\`.`;
  const lines = runs.map((run) => {
    const when = slackDate(run.createdAt);
    const place = chatOf(run)?.thread;
    const link = place?.thread ? ` · <${messageLink(place.channel, place.thread)}|thread>` : '';
    return `• ${when} · *${whoAsked(run)}* · ${inlineText(run.requirement, 120)} · ${shortStatus(run)} · \`${run.id}\`${link}`;
  });
  let text = `*Recent runs in this channel* (newest first):\n${lines.join('\n')}`;
  while (text.length > 2900 && lines.length > 1) {
    lines.pop();
    text = `*Recent runs in this channel* (newest first):\n${lines.join('\n')}`;
  }
  return text;
}

/** What `/show` reads and changes: the history and the agent (for the run's workspace). */
export interface ShowDeps {
  store: HistoryStore;
  agent: Agent;
}

/**
 * `/show [run id | thread link | thread ts] [remove <file name>]`: the latest code of that run (default:
 * the channel's newest run) and its workspace; with `remove`, removes that file from the workspace.
 * @throws the store's errors
 */
export async function showText(deps: ShowDeps, conv: string, arg: string, names: Pick<SlackCommandNames, 'run' | 'history' | 'show'> = DEFAULT_NAMES): Promise<string> {
  const { which, remove } = parseShow(arg);
  const run = await findRun(deps.store, conv, which);
  if (!run) {
    return which
      ? `No run found for that id or thread in this channel. \`${names.history}\` lists the runs.`
      : `No runs in this channel yet. Start one with \`${names.run} <what the program should do>\`.`;
  }
  if (remove !== undefined) return inlineText(await removeFileText(deps.agent, run, remove), 2900);
  const head = `*${inlineText(run.requirement, 300)}* (\`${run.id}\`, ${finalStatus(run)})`;
  const listing = workspaceListing(await deps.agent.workspace(run), `\`${names.show} ${run.id} remove <name>\` removes one`);
  const files = fencedSection(listing.lines.join('\n'), escapeMrkdwn(listing.title), 1200, 30).text;
  const workspace = listing.lines.length ? files : escapeMrkdwn(listing.title);
  const attempt = [...run.attempts].reverse().find((a) => a.code);
  if (!attempt) return `${head}\nThis run has no code yet.\n${workspace}`;
  const shown = fencedSection(attempt.code, `${head}\nLatest code (attempt ${attempt.index}):`, 2900 - workspace.length - 60, 200);
  return `${shown.truncated ? `${shown.text}\n_(cut; the full file is in the run's thread)_` : shown.text}\n${workspace}`;
}

/** `[run] [remove <name>]` → which run (empty: the newest) and the file to remove, if any. */
function parseShow(arg: string): { which: string; remove?: string } {
  const m = /^(?:(\S+)\s+)?remove(?:\s+([\s\S]*))?$/.exec(arg.trim());
  if (!m) return { which: arg.trim() };
  return { which: m[1] ?? '', remove: (m[2] ?? '').trim() };
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
