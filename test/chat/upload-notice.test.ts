/**
 * A file that could not be uploaded is said once (src/chat/view/upload-notice.ts): Slack's notice
 * after the message, Matrix's notice after the message (test/matrix/upload-refused.test.ts, against Synapse), Discord's line for a file too large to
 * attach and its note on a message whose attachments were refused say the same words; a hostile
 * file name or reason stays inert and bounded on each.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uploadNoticeView, UPLOAD_NOTICE_FILES } from '../../src/chat/view/upload-notice.js';
import { slackRenderer } from '../../adapters/slack/renderer.js';
import { discordRenderer, MESSAGE_CHARS } from '../../adapters/discord/renderer.js';
import { matrixRenderer } from '../../adapters/matrix/renderer.js';
import { withoutFiles } from '../../adapters/discord/surface.js';
import { untrusted } from './arbitraries.js';

type Files = Parameters<typeof uploadNoticeView>[0];
const slack = (files: Files, reason: string) => ([] as string[]).concat(slackRenderer.render(uploadNoticeView(files, reason))[0]!.text).join('\n');
const discord = (files: Files, reason: string) => discordRenderer.render(uploadNoticeView(files, reason))[0]!.content;
const matrix = (files: Files, reason: string) => matrixRenderer.render(uploadNoticeView(files, reason))[0]!.body;
const platforms = { slack, discord, matrix };
/** The text as a person reads it: Slack's entities undone, Discord's fence breaks (zero-width spaces) removed. */
const shown = (text: string) => text.replace(/&(amp|lt|gt);/g, '&').replace(/\u200b/g, '');

describe('a file that could not be uploaded', () => {
  it('is named with why in the same words on every platform', () => {
    for (const [name, render] of Object.entries(platforms)) {
      expect(render([{ name: 'plot.png', bytes: 12 * 1024 * 1024 }], 'larger than the limit'), name).toBe('📎 Could not upload `plot.png` (12.0 MB): larger than the limit');
      expect(render([{ name: 'a.csv' }, { name: 'b.txt' }], 'file_uploads_disabled'), name).toBe('📎 Could not upload `a.csv`, `b.txt`: file_uploads_disabled');
    }
  });

  it('names a few files and counts the rest', () => {
    const files = Array.from({ length: UPLOAD_NOTICE_FILES + 3 }, (_, i) => ({ name: `f${i}.txt` }));
    for (const [name, render] of Object.entries(platforms)) {
      const text = render(files, 'refused');
      expect(text, name).toContain(`\`f${UPLOAD_NOTICE_FILES - 1}.txt\` and 3 more: refused`);
      expect(text, name).not.toContain(`f${UPLOAD_NOTICE_FILES}.txt`);
    }
  });

  it('Discord names a file too large to attach, and a message whose attachments were refused, in the same words', () => {
    const big = discordRenderer.render({ blocks: [{ kind: 'files', files: [{ name: 'huge.bin', data: '/tmp/huge.bin', bytes: 11 * 1024 * 1024 }] }] });
    expect(big.map((m) => m.content)).toEqual(["📎 Could not upload `huge.bin` (11.0 MB): larger than Discord's 10 MiB upload limit"]);
    expect(big[0]!.files).toBeUndefined();
    const refused = withoutFiles({ content: 'Result of attempt 1', files: [{ name: 'out.txt', data: Buffer.from('x') }] }, '40005 Request entity too large');
    expect(refused).toEqual({ content: 'Result of attempt 1\n📎 Could not upload `out.txt`: 40005 Request entity too large' });
  });

  it('keeps a hostile name and reason inert, on one line and bounded, on every platform', () => {
    fc.assert(
      fc.property(untrusted, untrusted, (file, reason) => {
        for (const [name, render] of Object.entries(platforms)) {
          const text = render([{ name: file }, { name: `${file}.png`, bytes: 5 }], reason);
          expect(text.startsWith('📎 Could not upload `'), name).toBe(true);
          expect(text.includes('\n'), name).toBe(false);
          expect(shown(text).length, name).toBeLessThanOrEqual(1000);
        }
        const s = slack([{ name: file }], reason);
        expect(/[<>]/.test(s)).toBe(false);
        expect(s.length).toBeLessThanOrEqual(3000);
        expect(/```/.test(discord([{ name: file }], reason))).toBe(false);
        const m = matrixRenderer.render(uploadNoticeView([{ name: file }], reason))[0]!;
        expect(m.html).not.toMatch(/<(?!\/?code>)/);
        const refused = withoutFiles({ content: 'x'.repeat(MESSAGE_CHARS), files: [{ name: file, data: Buffer.from('x') }] }, reason);
        expect(refused.content.length).toBeLessThanOrEqual(MESSAGE_CHARS);
        expect(refused.content).toContain('📎 Could not upload `');
      }),
      { numRuns: 150 },
    );
  });

  it('a name or reason of characters each platform escapes is bounded as shown and as sent', () => {
    for (const ch of ['&', '<', '`', '\\', '*']) {
      for (const [name, render] of Object.entries(platforms)) {
        const text = render([{ name: ch.repeat(5000) }], ch.repeat(5000));
        expect(shown(text).length, `${name} ${ch}`).toBeLessThanOrEqual(1000);
        expect(text.length, `${name} ${ch}`).toBeLessThanOrEqual({ slack: 3000, discord: MESSAGE_CHARS, matrix: 4000 }[name]!);
      }
    }
  });
});
