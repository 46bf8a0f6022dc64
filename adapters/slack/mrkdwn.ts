/**
 * A Slack message and its Block Kit. Everything shown in Slack that came from a user, the LLM or a
 * program is escaped with {@link escapeMrkdwn} (`&`, `<` and `>`: no `<!channel>`, `<!here>`,
 * `<!everyone>`, `<@U…>`, `<#C…>`, `<!subteam^…>` or link survives); a message is mrkdwn sections
 * (each within {@link SECTION_TEXT_MAX}) and its buttons.
 *
 * Rules: https://docs.slack.dev/messaging/formatting-message-text#escaping
 * Limits: https://docs.slack.dev/reference/block-kit/blocks/section-block (text ≤ 3000),
 * https://docs.slack.dev/reference/block-kit/block-elements/button-element (value ≤ 2000).
 */
import type { types } from '@slack/bolt';

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
