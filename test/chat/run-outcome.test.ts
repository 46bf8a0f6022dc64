/**
 * One wording of a run's outcome on every platform (src/chat/run-outcome.ts, composed as a line in
 * src/chat/view/final-view.ts): Slack's, Discord's and Matrix's renderings of the status line say the
 * same words for every status, each escaped its own way; hostile error text stays inert and bounded
 * in each.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runOutcome } from '../../src/chat/run-outcome.js';
import type { Run, RunStatus } from '../../src/history/types.js';
import { statusLineOf } from '../../src/chat/view/final-view.js';
import type { View } from '../../src/chat/view/blocks.js';
import { slackRenderer } from '../../adapters/slack/renderer.js';
import { discordRenderer } from '../../adapters/discord/renderer.js';
import { matrixRenderer } from '../../adapters/matrix/renderer.js';
import { untrusted } from './arbitraries.js';

function run(status: RunStatus, attempts: number, error?: string): Run {
  return {
    id: 'r-1',
    conversationId: 'c',
    requirement: 'count the rows',
    status,
    attempts: Array.from({ length: attempts }, (_, i) => ({ index: i + 1, trigger: 'requirement' as const, code: 'print(1)', usage: { promptTokens: 0, completionTokens: 0 }, createdAt: '2026-01-01T00:00:00Z' })),
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...(error ? { error } : {}),
  };
}

/** The status line of `r` as one text block. */
const statusView = (r: Run): View => ({ blocks: [{ kind: 'text', text: statusLineOf(r) }] });
const slackStatus = (r: Run) => ([] as string[]).concat(slackRenderer.render(statusView(r))[0]!.text).join('\n');
const discordStatus = (r: Run) => discordRenderer.render(statusView(r))[0]!.content;
const matrixStatus = (r: Run) => matrixRenderer.render(statusView(r))[0]!.body;
const platforms = { slack: slackStatus, discord: discordStatus, matrix: matrixStatus };
/** Most characters of one message's text on each platform (Slack's section, Discord's content). */
const platformMax = { slack: 3000, discord: 2000, matrix: 4000 };
/** The line as a person reads it: Slack's entities and Discord's markdown escapes undone. */
const shown = (text: string) => text.replace(/&(amp|lt|gt);/g, '&').replace(/\\([\\*_~`|>#-])/g, '$1');

describe('the outcome of a run, in one wording', () => {
  it.each([
    ['success', 2, undefined, '✅ Success · 2 attempts'],
    ['unverified', 2, 'the checks did not pass', '⚠️ Ran, but not confirmed · 2 attempts'],
    ['failed', 1, 'ZeroDivisionError: division by zero', '❌ Failed · 1 attempt'],
    ['generated', 0, undefined, '📝 Code generated (not run)'],
  ] as const)('%s: every platform starts with the same words', (status, attempts, error, words) => {
    const r = run(status, attempts, error);
    for (const [name, line] of Object.entries(platforms)) {
      expect(line(r), name).toContain(words);
      if (error) expect(line(r), name).toContain(error.split(':')[0]);
    }
    expect(runOutcome(r).head).toBe(words.split(' · ')[0]);
  });

  it('the run id is in the line on every platform, as inline code', () => {
    const r = run('success', 1);
    expect(discordStatus(r)).toContain('run `r-1`');
    expect(matrixStatus(r)).toContain('run `r-1`');
    expect(slackStatus(r)).toContain('run `r-1`');
  });

  it('an error of characters each platform escapes is bounded as shown and as sent', () => {
    for (const ch of ['&', '<', '*', '`', '\\']) {
      const r = run('failed', 3, ch.repeat(5000));
      for (const [name, line] of Object.entries(platforms)) {
        const text = line(r);
        expect(shown(text).length, `${name} ${ch}`).toBeLessThanOrEqual(1000);
        expect(text.length, `${name} ${ch}`).toBeLessThanOrEqual(platformMax[name as keyof typeof platformMax]);
      }
    }
  });

  it('a hostile error stays one bounded line, with no open fence or mention on any platform', () => {
    fc.assert(
      fc.property(untrusted, (error) => {
        const r = run('failed', 3, error);
        for (const [name, line] of Object.entries(platforms)) {
          const text = line(r);
          expect(text.includes('\n'), name).toBe(false);
          expect(shown(text).length, name).toBeLessThanOrEqual(1000);
          expect(text.length, name).toBeLessThanOrEqual(platformMax[name as keyof typeof platformMax]);
          expect(text.startsWith('❌ Failed · 3 attempts'), name).toBe(true);
        }
        expect(/```/.test(discordStatus(r))).toBe(false);
        expect(/[<>]/.test(slackStatus(r))).toBe(false);
      }),
      { numRuns: 150 },
    );
  });
});
