/**
 * Slack's answers to a requester (src/chat/incoming-port.ts: AnswerMarkup), as mrkdwn: plain text
 * escaped, `/history` and `/show` built from what the pipeline read (every stored text escaped),
 * `/remember` and `/memory` with the entries in a code block,
 * within a section's 3000 characters.
 */
import type { AnswerMarkup, CommandNames, HistoryView, ShowView } from '../../src/chat/incoming-port.js';
import { STATUS_ICON } from '../../src/chat/format.js';
import { workspaceListing } from '../../src/chat/workspace-view.js';
import { chatOf } from '../../src/chat/run-chat.js';
import type { Run } from '../../src/history/types.js';
import { cutChars } from '../../src/text/cut.js';
import { escapeMrkdwn, fencedSection, inlineText } from './mrkdwn.js';
import { finalStatus, whoAsked } from './views.js';

/** Most characters of an answer (one section holds 3000). */
export const ANSWER_MAX_CHARS = 2900;

/** Link to a message, e.g. `https://slack.com/archives/C123/p1700000000000100` (Slack resolves the workspace). */
function messageLink(channel: string, ts: string): string {
  return `https://slack.com/archives/${encodeURIComponent(channel)}/p${ts.replace('.', '')}`;
}

/** `/history`: the channel's newest runs — when, who, requirement, status, link. */
export function historyText(view: HistoryView): string {
  const lines = view.runs.map((run) => {
    const place = chatOf(run)?.thread;
    const link = place?.thread ? ` · <${messageLink(place.channel, place.thread)}|thread>` : '';
    return `• ${slackDate(run.createdAt)} · *${whoAsked(run)}* · ${inlineText(run.requirement, 120)} · ${shortStatus(run)} · \`${run.id}\`${link}`;
  });
  let text = `*Recent runs in this channel* (newest first):\n${lines.join('\n')}`;
  while (text.length > ANSWER_MAX_CHARS && lines.length > 1) {
    lines.pop();
    text = `*Recent runs in this channel* (newest first):\n${lines.join('\n')}`;
  }
  return text;
}

/** `/show`: the run's latest code and its workspace. */
export function showText(view: ShowView, names: CommandNames): string {
  const { run } = view;
  const head = `*${inlineText(run.requirement, 300)}* (\`${run.id}\`, ${finalStatus(run)})`;
  const listing = workspaceListing(view.workspace, `\`${names.show} ${run.id} remove <name>\` removes one; \`${names.show} ${run.id} remove\` deletes the run`);
  const files = fencedSection(listing.lines.join('\n'), escapeMrkdwn(listing.title), 1200, 30).text;
  const workspace = listing.lines.length ? files : escapeMrkdwn(listing.title);
  const attempt = [...run.attempts].reverse().find((a) => a.code);
  if (!attempt) return `${head}\nThis run has no code yet.\n${workspace}`;
  const shown = fencedSection(attempt.code, `${head}\nLatest code (attempt ${attempt.index}):`, ANSWER_MAX_CHARS - workspace.length - 60, 200);
  return `${shown.truncated ? `${shown.text}\n_(cut; the full file is in the run's thread)_` : shown.text}\n${workspace}`;
}

/** Slack's answer markup. */
export const slackAnswers: AnswerMarkup<string> = {
  text: (plain) => escapeMrkdwn(cutChars(plain, ANSWER_MAX_CHARS)),
  history: historyText,
  show: showText,
  // the entries are the team's text: in a code block, within a section
  memory: (reply) => (reply.lines.length ? fencedSection(reply.lines.join('\n'), escapeMrkdwn(reply.title), ANSWER_MAX_CHARS, 60).text : escapeMrkdwn(cutChars(reply.title, ANSWER_MAX_CHARS))),
};

function shortStatus(run: Run): string {
  return `${STATUS_ICON[run.status]} ${run.status}`;
}

/** A date Slack shows in the reader's time zone (https://docs.slack.dev/messaging/formatting-message-text#date-formatting). */
function slackDate(iso: string): string {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  if (!Number.isFinite(seconds)) return 'unknown time';
  return `<!date^${seconds}^{date_short_pretty} {time}|${iso.slice(0, 16).replace('T', ' ')} UTC>`;
}
