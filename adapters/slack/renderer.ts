/**
 * Slack's renderer (src/chat/view/blocks.ts: ViewRenderer): a view as Block Kit messages of mrkdwn
 * sections (each at most 3000 characters after escaping, at most 50 blocks a message), buttons in
 * an actions block, and files uploaded after the message. Every text the view holds is escaped
 * here ({@link escapeMrkdwn}: `&<>`, so no `<!channel>`, `<!here>`, `<@U…>`, `<#C…>`,
 * `<!subteam^…>` or link survives: https://docs.slack.dev/messaging/formatting-message-text#escaping)
 * and fenced code stays inert; nothing is cut after it was escaped. A run's channel message ("root") is a view too
 * (src/chat/view/root-view.ts), with a short notification text.
 *
 * Limits: https://docs.slack.dev/reference/block-kit/blocks/section-block (text ≤ 3000),
 * https://docs.slack.dev/reference/block-kit/blocks (≤ 50 blocks a message),
 * https://docs.slack.dev/reference/block-kit/blocks/actions-block (≤ 25 elements),
 * https://docs.slack.dev/reference/block-kit/block-elements/button-element (value ≤ 2000).
 */
import { fitBlock, neutraliseFences } from '../../src/chat/format.js';
import type { ThreadMarkup } from '../../src/chat/port.js';
import { plainText, type Action, type Block, type Inline, type Line, type ViewFile, type ViewRenderer } from '../../src/chat/view/blocks.js';
import { threadMarkup } from '../../src/chat/view/thread-markup.js';
import { actionLabel, attachedNote, codeTailShown, fitLine, flatLine, splitLines, utcMinute, wholeFile } from '../../src/chat/view/fit.js';
import { packLines, unknownBlock } from '../../src/chat/view/pack.js';
import { rootHeadline, rootView, type RootSpec } from '../../src/chat/view/root-view.js';
import type { types } from '@slack/bolt';
import { runActionOf, type RunAction } from '../../src/chat/run-actions.js';

/** Most characters of a section block's text (Slack's limit). */
export const SECTION_TEXT_MAX = 3000;

/**
 * Escapes the three characters Slack treats as control characters in message text.
 * The result can't mention anyone or link anywhere, inside or outside code blocks.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A file to upload into a thread. */
export interface Upload {
  filename: string;
  /** Either bytes/text … */
  content?: Buffer | string;
  /** … or a host path. */
  path?: string;
  title?: string;
  /** e.g. `python`, `text` (https://docs.slack.dev/reference/methods/files.getUploadURLExternal). */
  snippetType?: string;
}

/** A button of an actions block (https://docs.slack.dev/reference/block-kit/block-elements/button-element). */
export interface SlackButton {
  actionId: string;
  text: string;
  value: string;
  primary?: boolean;
  /** One of a 👍/👎 pair, shown as Block Kit's feedback buttons ({@link messageBlocks}). */
  feedback?: 'positive' | 'negative';
}

/** One Slack message: mrkdwn sections, its notification text, buttons, and files uploaded after it. */
export interface SlackOut {
  text: string | string[];
  /** The notification text (already escaped); default the sections joined. */
  plain?: string;
  buttons?: SlackButton[];
  uploads?: Upload[];
}

/** A message's sections. */
export const sectionsOf = (msg: Pick<SlackOut, 'text'>): string[] => (Array.isArray(msg.text) ? msg.text : [msg.text]);

/** A section block with mrkdwn text (caller keeps it ≤ {@link SECTION_TEXT_MAX}). */
export function section(text: string): { type: 'section'; text: { type: 'mrkdwn'; text: string } } {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/**
 * The blocks of a message: a section per string, then its buttons in an actions block (plain-text
 * labels), and a 👍/👎 pair (buttons whose `feedback` is set) as Block Kit's feedback buttons in a
 * context actions block (https://docs.slack.dev/reference/block-kit/block-elements/feedback-buttons-element;
 * in @slack/types 2.22, Bolt 4.7.2's): their values say which was pressed.
 */
export function messageBlocks(msg: Pick<SlackOut, 'text' | 'buttons'>): types.KnownBlock[] {
  const buttons = msg.buttons ?? [];
  const plain = buttons.filter((b) => !b.feedback);
  const up = buttons.find((b) => b.feedback === 'positive');
  const down = buttons.find((b) => b.feedback === 'negative');
  const feedback = (b: SlackButton, accessibility_label: string) => ({ text: { type: 'plain_text', text: b.text }, accessibility_label, value: b.value.slice(0, 2000) });
  const elements = plain.map((b) => ({ type: 'button', action_id: b.actionId, text: { type: 'plain_text', text: b.text }, value: b.value.slice(0, 2000), ...(b.primary ? { style: 'primary' } : {}) }));
  return [
    ...sectionsOf(msg).map(section),
    ...(plain.length ? [{ type: 'actions', elements }] : []),
    ...(up && down
      ? [{ type: 'context_actions', elements: [{ type: 'feedback_buttons', action_id: up.actionId, positive_button: feedback(up, 'The answer is right'), negative_button: feedback(down, 'Something is wrong') }] }]
      : []),
  ] as types.KnownBlock[];
}

/** The action id (Block Kit `action_id`) of a run action's button (src/chat/run-actions.ts), e.g. `ca_rerun`, `ca_just_this_time`; the value is the run id (clicks.ts reads them back). */
export const runActionId = (id: RunAction) => `ca_${id.replace(/-/g, '_')}`;
/** Action id prefix of a choice button (a candidate, "Neither"): `ca_choice:<choice id>` (src/chat/settle-view.ts); the value is the run id. */
export const CHOICE_ACTION_PREFIX = 'ca_choice:';
/** Action id of the 👍/👎 feedback buttons; each button's value is `<choice id>|<run id>`. */
export const FEEDBACK_ACTION = 'ca_feedback';

/** Most sections of one message (Slack's 50 blocks, two of them kept for the buttons), and buttons of one actions block. */
const SECTIONS_MAX = 48;
const BUTTONS_MAX = 25;
/** Characters of a button's text (Slack's limit), of a code block's or an output's label, and of a root's notification text. */
const BUTTON_TEXT_MAX = 75;
const LABEL_MAX = 1000;
const NOTIFICATION_CHARS = 200;

/** One inline piece as mrkdwn (escaped; backticks in inline code become `'`; a moment in Slack's date formatting, with its text for clients that cannot show it). */
export function slackInline(piece: Inline): string {
  const text = (raw: string) => escapeMrkdwn(neutraliseFences(raw));
  if (typeof piece === 'string') return text(piece);
  if ('strong' in piece) return piece.strong ? `*${text(piece.strong)}*` : '';
  if ('emphasis' in piece) return piece.emphasis ? `_${text(piece.emphasis)}_` : '';
  if ('code' in piece) return piece.code ? `\`${escapeMrkdwn(piece.code.replace(/`/g, "'"))}\`` : '';
  if ('struck' in piece) return piece.struck ? `~${text(piece.struck)}~` : '';
  if ('link' in piece) return /^https:\/\/[^\s<>|]+$/.test(piece.url) ? `<${escapeMrkdwn(piece.url)}|${text(piece.link)}>` : text(piece.link);
  if ('person' in piece) return piece.person ? `*${text(piece.person)}*` : '';
  const at = Date.parse(piece.time);
  return Number.isNaN(at) ? text(piece.time) : `<!date^${Math.floor(at / 1000)}^{date_short_pretty} {time}|${utcMinute(at)}>`;
}

/** A line as one mrkdwn line within `max` characters. */
const oneLine = (line: Line, max: number) => fitLine(flatLine(line), max, slackInline);

/**
 * Untrusted text as a Slack code block (fences neutralised, escaped) under an optional `label`
 * (already mrkdwn), within `max` characters after escaping (`&` → `&amp;` grows the text: never cut
 * afterwards) and `maxLines` lines; `truncated`: the caller attaches the whole text as a file.
 */
export function fencedSection(raw: string, label = '', max = SECTION_TEXT_MAX, maxLines = 40): { text: string; truncated: boolean } {
  return fitBlock(raw, max, { maxLines, wrap: (block) => `${label ? `${label}\n` : ''}${escapeMrkdwn(block)}` });
}

/** A button of an action: its action id and value say what the click does. */
function button(action: Action): SlackButton {
  const text = actionLabel(action, BUTTON_TEXT_MAX);
  if (action.id === 'approve:up' || action.id === 'approve:down') {
    return { actionId: FEEDBACK_ACTION, text, value: `${action.id}|${action.runId}`, feedback: action.id === 'approve:up' ? 'positive' : 'negative' };
  }
  const run = runActionOf(action.id);
  return { actionId: run ? runActionId(run) : `${CHOICE_ACTION_PREFIX}${action.id}`, text, value: action.runId, ...(action.style === 'primary' ? { primary: true } : {}) };
}

/** A file of the view as an upload (a string is a host path). */
const upload = (file: ViewFile, snippetType?: string): Upload => ({
  filename: file.name,
  ...(typeof file.data === 'string' ? { path: file.data } : { content: file.data }),
  ...(snippetType ? { snippetType } : {}),
});

/** What a view's blocks add to its messages. */
type Shown = Required<Pick<SlackOut, 'buttons' | 'uploads'>> & { sections: string[] };

/** Adds one block to what the view shows. */
function block(b: Block, shown: Shown): void {
  const label = 'label' in b && b.label ? oneLine(b.label, LABEL_MAX) : '';
  switch (b.kind) {
    case 'heading':
      return void shown.sections.push(oneLine(b.text, SECTION_TEXT_MAX));
    case 'text':
      return void shown.sections.push(...packLines(splitLines(b.text).map((line) => fitLine(line, SECTION_TEXT_MAX, slackInline)), SECTION_TEXT_MAX));
    case 'fields':
      return void shown.sections.push(...packLines(b.fields.map((f) => `*${escapeMrkdwn(neutraliseFences(f.label))}:* ${oneLine(f.value, SECTION_TEXT_MAX - 200)}`), SECTION_TEXT_MAX));
    case 'code': {
      if (b.tail) {
        const tail = codeTailShown(b.code, SECTION_TEXT_MAX - LABEL_MAX - 500);
        return void shown.sections.push(fencedSection(tail.text, `${label}${tail.note}`).text);
      }
      const fenced = fencedSection(b.code, label);
      shown.sections.push(fenced.truncated ? `${label}${attachedNote(b.code, label !== '')}` : fenced.text);
      if (fenced.truncated) shown.uploads.push(upload(wholeFile(b), b.language === 'python' ? 'python' : 'text'));
      return;
    }
    case 'output': {
      const fenced = fencedSection(b.text, label, SECTION_TEXT_MAX, b.maxLines ?? 40);
      shown.sections.push(fenced.text);
      if (fenced.truncated) shown.uploads.push(upload(wholeFile(b), 'text'));
      return;
    }
    case 'actions':
      return void shown.buttons.push(...b.actions.map(button));
    case 'files':
      return void shown.uploads.push(...b.files.map((f) => upload(f)));
    default:
      return unknownBlock(b, 'Slack');
  }
}

/** Slack's renderer. */
export const slackRenderer: ViewRenderer<SlackOut> = {
  render(view) {
    const shown: Shown = { sections: [], uploads: [], buttons: [] };
    for (const b of view.blocks) block(b, shown);
    const { uploads, buttons } = shown;
    const sections = shown.sections.filter((s) => s.trim() !== '');
    if (sections.length === 0) sections.push(buttons.length || uploads.length ? '\u200b' : '_(empty)_');
    const messages: SlackOut[] = [];
    for (let i = 0; i < sections.length; i += SECTIONS_MAX) messages.push({ text: sections.slice(i, i + SECTIONS_MAX) });
    const last = messages.at(-1)!;
    if (buttons.length) last.buttons = buttons.slice(0, BUTTONS_MAX);
    if (uploads.length) last.uploads = uploads;
    return messages;
  },
};

/** The messages of a run's thread on Slack (src/chat/view/thread-markup.ts). */
export const slackThreadMarkup: ThreadMarkup<SlackOut> = threadMarkup({ renderer: slackRenderer });

/** A run's channel message: its mrkdwn sections, and its notification text (`<who> asked: <request>`, one line, escaped). */
export function rootMessage(spec: RootSpec): { sections: string[]; plain: string } {
  const sections = ([] as string[]).concat(slackRenderer.render(rootView(spec))[0]!.text);
  return { sections, plain: fitLine([plainText(rootHeadline(spec)).replace(/\s+/g, ' ').trim()], NOTIFICATION_CHARS, slackInline) };
}
