/**
 * Slack text safety. Everything shown in Slack that came from a user, the LLM or a program goes
 * through here: `&`, `<` and `>` are escaped so no control sequence survives (`<!channel>`,
 * `<!here>`, `<!everyone>`, `<@U…>`, `<#C…>`, `<!subteam^…>`, links), code fences are neutralised,
 * and a section's text stays within Slack's 3000 characters.
 *
 * Rules: https://docs.slack.dev/messaging/formatting-message-text#escaping
 * Limit: https://docs.slack.dev/reference/block-kit/blocks/section-block (text: max 3000 characters)
 */
import type { types } from '@slack/bolt';

type KnownBlock = types.KnownBlock;
import { fitBlock, neutraliseFences } from '../../src/chat/format.js';
import { cutChars } from '../../src/text/cut.js';

/** Most characters of a section block's text (Slack's limit). */
export const SECTION_TEXT_MAX = 3000;

/** Lines of output shown inline before the rest goes to a file. */
export const OUTPUT_LINES_MAX = 40;

/**
 * Escapes the three characters Slack treats as control characters in message text.
 * The result can't mention anyone or link anywhere, inside or outside code blocks.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Result of {@link fencedSection}. */
export interface FencedText {
  /** mrkdwn, at most `max` characters: optional label line, then a code block. */
  text: string;
  /** True when the text was cut; the caller attaches the full text as a file. */
  truncated: boolean;
}

/**
 * Untrusted text as a Slack code block (fences neutralised, escaped), preceded by an optional
 * label (already mrkdwn), capped to `max` characters after escaping and to {@link OUTPUT_LINES_MAX} lines.
 */
export function fencedSection(raw: string, label = '', max = SECTION_TEXT_MAX, maxLines = OUTPUT_LINES_MAX): FencedText {
  const prefix = label ? `${label}\n` : '';
  // measured after escaping (`&` → `&amp;` grows the text), never cut afterwards
  return fitBlock(raw, max, { maxLines, wrap: (block) => `${prefix}${escapeMrkdwn(block)}` });
}

/**
 * A one-line, escaped version of untrusted text (for status lines and titles): fences neutralised
 * (a ``` would open a block that swallows the rest of the message), at most `max` characters
 * *after* escaping, cut on a character boundary (never inside an entity), `…` when cut.
 */
export function inlineText(raw: string, max = 200): string {
  const line = neutraliseFences(raw.replace(/\s+/g, ' ').trim());
  const escaped = escapeMrkdwn(line);
  if (escaped.length <= max) return escaped;
  let lo = 0;
  let hi = Math.min(line.length, max);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (escapeMrkdwn(cutChars(line, mid)).length + 1 <= max) lo = mid;
    else hi = mid - 1;
  }
  return `${escapeMrkdwn(cutChars(line, lo))}…`;
}

/** A section block with mrkdwn text (caller keeps it ≤ {@link SECTION_TEXT_MAX}). */
export function section(text: string): { type: 'section'; text: { type: 'mrkdwn'; text: string } } {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/** A button of an actions block (https://docs.slack.dev/reference/block-kit/block-elements/button-element). */
export interface SlackButton {
  actionId: string;
  text: string;
  value: string;
  primary?: boolean;
  /** One of a 👍/👎 pair, shown as Block Kit's feedback buttons ({@link buttonBlocks}). */
  feedback?: 'positive' | 'negative';
}

/**
 * The blocks of a message's buttons: an actions block of buttons, and a 👍/👎 pair (buttons whose
 * `feedback` is set) as Block Kit's feedback buttons in a context actions block
 * (https://docs.slack.dev/reference/block-kit/block-elements/feedback-buttons-element; in
 * @slack/types 2.22, Bolt 4.7.2's): their values say which was pressed.
 */
export function buttonBlocks(buttons: SlackButton[]): KnownBlock[] {
  const plain = buttons.filter((b) => !b.feedback);
  const up = buttons.find((b) => b.feedback === 'positive');
  const down = buttons.find((b) => b.feedback === 'negative');
  const blocks: KnownBlock[] = plain.length ? [actions(plain) as KnownBlock] : [];
  if (up && down) {
    blocks.push({
      type: 'context_actions' as const,
      elements: [
        {
          type: 'feedback_buttons',
          action_id: up.actionId,
          positive_button: { text: { type: 'plain_text', text: up.text }, accessibility_label: 'The answer is right', value: up.value.slice(0, 2000) },
          negative_button: { text: { type: 'plain_text', text: down.text }, accessibility_label: 'Something is wrong', value: down.value.slice(0, 2000) },
        },
      ],
    });
  }
  return blocks;
}

/** An actions block of buttons (plain-text labels; `value` at most 2000 characters). */
export function actions(buttons: SlackButton[]): { type: 'actions'; elements: unknown[] } {
  return {
    type: 'actions',
    elements: buttons.map((b) => ({
      type: 'button',
      action_id: b.actionId,
      text: { type: 'plain_text', text: b.text },
      value: b.value.slice(0, 2000),
      ...(b.primary ? { style: 'primary' } : {}),
    })),
  };
}
