/**
 * Slack's renderer (src/chat/view/blocks.ts: ViewRenderer): a view as Block Kit messages of mrkdwn
 * sections (each at most 3000 characters after escaping, at most 50 blocks a message), buttons in
 * an actions block, and files uploaded after the message. Every text the view holds is escaped
 * here (mrkdwn.ts: `&<>`, so no `<!channel>`, `<@U…>` or link survives) and fenced code stays inert;
 * nothing is cut after it was escaped.
 *
 * Limits: https://docs.slack.dev/reference/block-kit/blocks/section-block (text ≤ 3000),
 * https://docs.slack.dev/reference/block-kit/blocks (≤ 50 blocks a message),
 * https://docs.slack.dev/reference/block-kit/blocks/actions-block (≤ 25 elements).
 */
import { neutraliseFences } from '../../src/chat/format.js';
import type { ThreadMarkup } from '../../src/chat/port.js';
import type { Action, Block, Inline, Line, ViewFile, ViewRenderer } from '../../src/chat/view/blocks.js';
import { threadMarkup } from '../../src/chat/view/thread-markup.js';
import { actionLabel, attachedNote, codeTailShown, fitLine, flatLine, splitLines, utcMinute, wholeFile } from '../../src/chat/view/fit.js';
import { escapeMrkdwn, fencedSection, SECTION_TEXT_MAX, type SlackButton } from './mrkdwn.js';
import type { Upload } from './poster.js';

/** One Slack message: mrkdwn sections, its notification text, buttons, and files uploaded after it. */
export interface SlackOut {
  text: string | string[];
  /** The notification text (already escaped); default the sections joined. */
  plain?: string;
  buttons?: SlackButton[];
  uploads?: Upload[];
}

/** Most blocks of one message (Slack's limit), two of them kept for the buttons. */
const MESSAGE_BLOCKS = 50;
const SECTIONS_MAX = MESSAGE_BLOCKS - 2;
/** Most buttons of one actions block. */
const BUTTONS_MAX = 25;
/** Characters of a button's text (Slack's limit). */
const BUTTON_TEXT_MAX = 75;
/** Characters of a code block's or an output's label. */
const LABEL_MAX = 1000;

/** Slack's date formatting of a moment, with its text for clients that cannot show it. */
function time(iso: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return escapeMrkdwn(neutraliseFences(iso));
  return `<!date^${Math.floor(at / 1000)}^{date_short_pretty} {time}|${utcMinute(at)}>`;
}

/** One inline piece as mrkdwn (escaped; backticks in inline code become `'`). */
export function slackInline(piece: Inline): string {
  const text = (raw: string) => escapeMrkdwn(neutraliseFences(raw));
  if (typeof piece === 'string') return text(piece);
  if ('strong' in piece) return piece.strong ? `*${text(piece.strong)}*` : '';
  if ('emphasis' in piece) return piece.emphasis ? `_${text(piece.emphasis)}_` : '';
  if ('code' in piece) return piece.code ? `\`${escapeMrkdwn(piece.code.replace(/`/g, "'"))}\`` : '';
  if ('struck' in piece) return piece.struck ? `~${text(piece.struck)}~` : '';
  if ('link' in piece) return /^https:\/\/[^\s<>|]+$/.test(piece.url) ? `<${escapeMrkdwn(piece.url)}|${text(piece.link)}>` : text(piece.link);
  if ('person' in piece) return piece.person ? `*${text(piece.person)}*` : '';
  return time(piece.time);
}

/** A line as one mrkdwn line within `max` characters. */
const oneLine = (line: Line, max: number) => fitLine(flatLine(line), max, slackInline);

/** Lines packed into sections of at most {@link SECTION_TEXT_MAX} characters. */
function packLines(lines: string[]): string[] {
  const sections: string[] = [];
  for (const line of lines) {
    const last = sections.at(-1);
    if (last !== undefined && last.length + 1 + line.length <= SECTION_TEXT_MAX) sections[sections.length - 1] = `${last}\n${line}`;
    else sections.push(line);
  }
  return sections.filter((s) => s.trim() !== '');
}

/** Action ids (Block Kit `action_id`) of the buttons on a run's final message and of the offer to remember a correction; the value is the run id (clicks.ts matches them). */
export const RERUN_ACTION = 'ca_rerun';
export const IMPROVE_ACTION = 'ca_improve';
export const REMEMBER_ACTION = 'ca_remember';
export const JUST_THIS_TIME_ACTION = 'ca_just_this_time';
/** Action id prefix of a choice button (a candidate, "Neither"): `ca_choice:<choice id>` (src/chat/settle-view.ts); the value is the run id. */
export const CHOICE_ACTION_PREFIX = 'ca_choice:';
/** Action id of the 👍/👎 feedback buttons; each button's value is `<choice id>|<run id>`. */
export const FEEDBACK_ACTION = 'ca_feedback';

/** The action ids of the actions on a run that are not choices. */
const RUN_ACTIONS = new Map([['rerun', RERUN_ACTION], ['improve', IMPROVE_ACTION], ['remember', REMEMBER_ACTION], ['just-this-time', JUST_THIS_TIME_ACTION]]);

/** A button of an action: its action id and value say what the click does . */
function button(action: Action): SlackButton {
  const text = actionLabel(action, BUTTON_TEXT_MAX);
  const primary = action.style === 'primary' ? { primary: true } : {};
  if (action.id === 'approve:up' || action.id === 'approve:down') {
    return { actionId: FEEDBACK_ACTION, text, value: `${action.id}|${action.runId}`, feedback: action.id === 'approve:up' ? 'positive' : 'negative' };
  }
  return { actionId: RUN_ACTIONS.get(action.id) ?? `${CHOICE_ACTION_PREFIX}${action.id}`, text, value: action.runId, ...primary };
}

/** A file of the view as an upload (a string is a host path). */
const upload = (file: ViewFile, snippetType?: string): Upload => ({
  filename: file.name,
  ...(typeof file.data === 'string' ? { path: file.data } : { content: file.data }),
  ...(snippetType ? { snippetType } : {}),
});

/** What one block adds to a message. */
interface Shown {
  sections: string[];
  uploads: Upload[];
  buttons: SlackButton[];
}

function block(b: Block): Shown {
  const shown: Shown = { sections: [], uploads: [], buttons: [] };
  switch (b.kind) {
    case 'heading':
      shown.sections.push(oneLine(b.text, SECTION_TEXT_MAX));
      break;
    case 'text':
      shown.sections.push(...packLines(splitLines(b.text).map((line) => fitLine(line, SECTION_TEXT_MAX, slackInline))));
      break;
    case 'fields':
      shown.sections.push(...packLines(b.fields.map((f) => `*${escapeMrkdwn(neutraliseFences(f.label))}:* ${oneLine(f.value, SECTION_TEXT_MAX - 200)}`)));
      break;
    case 'code': {
      const label = b.label ? oneLine(b.label, LABEL_MAX) : '';
      if (b.tail) {
        const tail = codeTailShown(b.code, SECTION_TEXT_MAX - LABEL_MAX - 500);
        shown.sections.push(fencedSection(tail.text, `${label}${tail.note}`).text);
        break;
      }
      const fenced = fencedSection(b.code, label);
      if (!fenced.truncated) shown.sections.push(fenced.text);
      else {
        shown.sections.push(`${label}${attachedNote(b.code, label !== '')}`);
        shown.uploads.push(upload(wholeFile(b), b.language === 'python' ? 'python' : 'text'));
      }
      break;
    }
    case 'output': {
      const fenced = fencedSection(b.text, b.label ? oneLine(b.label, LABEL_MAX) : '', SECTION_TEXT_MAX, b.maxLines ?? 40);
      shown.sections.push(fenced.text);
      if (fenced.truncated) shown.uploads.push(upload(wholeFile(b), 'text'));
      break;
    }
    case 'actions':
      shown.buttons.push(...b.actions.map(button));
      break;
    case 'files':
      shown.uploads.push(...b.files.map((f) => upload(f)));
      break;
    default:
      return unknownBlock(b);
  }
  return shown;
}

/** Compile-time proof that every kind of block is rendered. */
function unknownBlock(b: never): never {
  throw new Error(`block without a Slack rendering: ${JSON.stringify(b)}`);
}

/** Slack's renderer. */
export const slackRenderer: ViewRenderer<SlackOut> = {
  render(view) {
    const sections: string[] = [];
    const uploads: Upload[] = [];
    const buttons: SlackButton[] = [];
    for (const b of view.blocks) {
      const shown = block(b);
      sections.push(...shown.sections);
      uploads.push(...shown.uploads);
      buttons.push(...shown.buttons);
    }
    const shown = sections.filter((s) => s.trim() !== '');
    if (shown.length === 0) shown.push(buttons.length || uploads.length ? '\u200b' : '_(empty)_');
    const messages: SlackOut[] = [];
    for (let i = 0; i < shown.length; i += SECTIONS_MAX) messages.push({ text: shown.slice(i, i + SECTIONS_MAX) });
    const last = messages.at(-1)!;
    if (buttons.length) last.buttons = buttons.slice(0, BUTTONS_MAX);
    if (uploads.length) last.uploads = uploads;
    return messages;
  },
};

/** The messages of a run's thread on Slack (src/chat/view/thread-markup.ts). */
export const slackThreadMarkup: ThreadMarkup<SlackOut> = threadMarkup({ renderer: slackRenderer });
