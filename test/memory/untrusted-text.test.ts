/**
 * What the team remembers is text from strangers: shown back (the `/remember` and `/memory`
 * answers, the offer after a correction), it stays inside a code block, its fences cannot close
 * that block, and Slack's mentions in it are escaped (they never ping).
 */
import { describe, expect, it } from 'vitest';
import { slackAnswers } from '../../adapters/slack/requesters.js';
import { discordAnswers } from '../../adapters/discord/answers.js';
import { slackThreadMarkup } from '../../adapters/slack/renderer.js';
import { discordThreadMarkup } from '../../adapters/discord/renderer.js';
import { entryLine } from '../../src/memory/commands.js';

const HOSTILE = 'revenue <!channel> <@U123> @everyone ``` closing the block\n```python\nprint("x")';

/** The text outside every ``` code block of a message. */
function outsideBlocks(text: string): string {
  return text.split('```').filter((_, i) => i % 2 === 0).join('');
}

describe('remembered text shown back', () => {
  const reply = { title: '🧠 Memory of this channel: 1 of 200 entries', lines: [entryLine({ id: 'm1', conversationId: 'c', kind: 'definition', text: HOSTILE, addedBy: 'U1', addedAt: '2026-01-01T00:00:00Z', bytes: 10 })] };

  it('Slack: in one code block, mentions escaped', () => {
    const text = slackAnswers.memory(reply);
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<@U123>');
    expect(text.split('```')).toHaveLength(3); // one block: the hostile fences were neutralised
    expect(outsideBlocks(text)).not.toMatch(/everyone|channel&gt;|print/);
    const offer = slackThreadMarkup.memoryOffer!({ runId: 'r1', sentence: HOSTILE });
    const offerText = ([] as string[]).concat(offer.text).join('\n');
    expect(offerText).not.toContain('<!channel>');
    expect(offerText.split('```')).toHaveLength(3);
    expect(offer.buttons?.map((b) => b.text)).toEqual(['Remember', 'Just this time']);
  });

  it('Discord: in one code block', () => {
    const msg = discordAnswers.memory(reply);
    expect(msg.content.split('```')).toHaveLength(3);
    expect(outsideBlocks(msg.content)).not.toMatch(/everyone|<@U123>|print/);
    const offer = discordThreadMarkup.memoryOffer!({ runId: 'r1', sentence: HOSTILE });
    expect(offer.content.split('```')).toHaveLength(3);
    expect(outsideBlocks(offer.content)).not.toMatch(/everyone|<@U123>|print/);
  });
});
