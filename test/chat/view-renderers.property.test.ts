/**
 * Properties of the three renderers (adapters/<platform>/renderer.ts): any view — every kind of
 * block, holding hostile text (fences, backticks, mentions, Slack's `<…|…>` and `&<>`, HTML tags,
 * 100 kB, combining characters, astral emoji, empty strings) — renders as messages that are each
 * well-formed on their own (fences even, no live mention, valid HTML of the spec's subset on
 * Matrix, no lone surrogate) and within the platform's limits, and an output cut for room is
 * carried whole by a file.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutraliseFences } from '../../src/chat/format.js';
import { BLOCK_KINDS, type Block, type Inline, type View } from '../../src/chat/view/blocks.js';
import { escapeMrkdwn, SECTION_TEXT_MAX, slackRenderer, type SlackOut } from '../../adapters/slack/renderer.js';
import { discordRenderer, MESSAGE_CHARS } from '../../adapters/discord/renderer.js';
import { toOptions } from '../../adapters/discord/surface.js';
import { matrixRenderer } from '../../adapters/matrix/renderer.js';
import { CONTENT_BYTES, contentBytes } from '../../adapters/matrix/markup.js';
import { fenceCount, untrusted } from './arbitraries.js';

const RUNS = { numRuns: 40 };

/** Text chosen to break a renderer, on top of the shared arbitraries' untrusted text. */
const HOSTILE = [
  '',
  '```',
  '``',
  '`',
  '@everyone',
  '@here',
  '@room',
  '<@U1>',
  '<!channel>',
  '<!here>',
  '<#C1|general>',
  '<https://evil.example|click>',
  '&amp;<>&',
  '<b>bold</b><script>alert(1)</script><a href="javascript:x">x</a>',
  '</pre></code><pre>',
  'e\u0301\u0302\u0303'.repeat(500),
  '😀👩‍💻🏳️‍🌈'.repeat(2000),
  '```py\nprint(1)\n```\n'.repeat(5000),
  `${'x'.repeat(99_990)}\n@everyone`,
];

const text: fc.Arbitrary<string> = fc.oneof({ weight: 2, arbitrary: untrusted }, { weight: 2, arbitrary: fc.constantFrom(...HOSTILE) }, { weight: 1, arbitrary: fc.array(fc.constantFrom(...HOSTILE), { maxLength: 3 }).map((p) => p.join('')) });
const inline: fc.Arbitrary<Inline> = fc.oneof(
  text,
  text.map((strong) => ({ strong })),
  text.map((emphasis) => ({ emphasis })),
  text.map((code) => ({ code })),
  text.map((struck) => ({ struck })),
  fc.tuple(text, fc.constantFrom('https://example.com/a?b=1&c=2', 'javascript:alert(1)', 'https://x|y>', 'https://ok.example/<@U1>')).map(([link, url]) => ({ link, url })),
  fc.constantFrom('2026-01-02T03:04:05Z', 'not a date', '').map((time) => ({ time })),
  fc.tuple(text, fc.constantFrom(undefined, '123456789012345678', 'U1', '<@U1>', '@everyone')).map(([person, id]) => ({ person, ...(id ? { id } : {}) })),
);
const line = fc.array(inline, { maxLength: 5 });
const action = fc.record({
  id: fc.constantFrom('rerun', 'improve', 'remember', 'just-this-time', 'settle:1', 'settle:2', 'settle:neither', 'approve:up', 'approve:down', 'program:save', 'program:new', 'other'),
  runId: fc.constantFrom('r-1', 'r'.repeat(120)),
  label: text.map((t) => t.slice(0, 300)),
  style: fc.constantFrom(undefined, 'primary' as const, 'danger' as const),
}, { requiredKeys: ['id', 'runId', 'label'] });
const file = fc.record({ name: fc.constantFrom('plot.png', 'a/b/c.csv', 'x`y.txt', ''), data: fc.constantFrom(Buffer.from('data'), '/tmp/artifact.bin'), bytes: fc.constantFrom(undefined, 10, 30 * 1024 * 1024) }, { requiredKeys: ['name', 'data'] });

const blockOf: Record<(typeof BLOCK_KINDS)[number], fc.Arbitrary<Block>> = {
  heading: line.map((t) => ({ kind: 'heading', text: t })),
  text: line.map((t) => ({ kind: 'text', text: t })),
  code: fc.record({ code: text, language: fc.constantFrom(undefined, 'python'), label: fc.option(line, { nil: undefined }), tail: fc.boolean() }).map((b) => ({ kind: 'code' as const, code: b.code, tail: b.tail, ...(b.language ? { language: b.language } : {}), ...(b.label ? { label: b.label } : {}) })),
  output: fc.record({ text, stream: fc.constantFrom('stdout' as const, 'stderr' as const, 'checks' as const), label: fc.option(line, { nil: undefined }), maxLines: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }) }).map((b) => ({ kind: 'output' as const, text: b.text, stream: b.stream, ...(b.label ? { label: b.label } : {}), ...(b.maxLines ? { maxLines: b.maxLines } : {}) })),
  fields: fc.array(fc.record({ label: text.map((t) => t.slice(0, 100)), value: line }), { maxLength: 4 }).map((fields) => ({ kind: 'fields', fields })),
  actions: fc.array(action, { maxLength: 30 }).map((actions) => ({ kind: 'actions', actions })),
  files: fc.array(file, { maxLength: 14 }).map((files) => ({ kind: 'files', files })),
};

/** A view with one block of every kind, in any order, and more blocks of any kind. */
const view: fc.Arbitrary<View> = fc
  .tuple(fc.tuple(...BLOCK_KINDS.map((k) => blockOf[k])), fc.array(fc.oneof(...Object.values(blockOf)), { maxLength: 4 }))
  .chain(([every, more]) => fc.shuffledSubarray([...every, ...more], { minLength: every.length + more.length }))
  .map((blocks) => ({ blocks }));

/** Every text of a view well-formed (no lone surrogate): only then must a rendering be. */
function wellFormedView(v: View): boolean {
  let ok = true;
  JSON.stringify(v, (_k, value: unknown) => {
    if (typeof value === 'string' && !value.isWellFormed()) ok = false;
    return Buffer.isBuffer(value) ? '' : value;
  });
  return ok;
}

/** Slack: the only `<…>` sequences are ours (a date or a https link); nothing mentions anyone. */
function slackInert(section: string): void {
  const controls = section.match(/<[^>]*>/g) ?? [];
  for (const c of controls) expect(c).toMatch(/^<(!date\^\d+\^\{date_short_pretty\} \{time\}\|[^<>|]*|https:\/\/[^\s<>|]+\|[^<>]*)>$/);
  expect(section).not.toMatch(/<(?!!date\^|https:\/\/)/);
  expect(/&(?!amp;|lt;|gt;)/.test(section.replace(/<https:[^>]*>/g, ''))).toBe(false);
}

/** Strict check of Matrix's HTML subset: known tags only, balanced, attributes quoted, text escaped. */
function validMatrixHtml(html: string): void {
  const stack: string[] = [];
  const tag = /<(\/?)([a-z]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/g;
  let at = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const between = html.slice(at, m.index);
    expect(between).not.toMatch(/[<>]/);
    expect(between).not.toMatch(/&(?!#\d+;|amp;|lt;|gt;|quot;)/);
    at = m.index + m[0].length;
    const [, close, name] = m;
    expect(['strong', 'em', 'del', 'code', 'pre', 'br', 'a']).toContain(name);
    if (name === 'br') continue;
    if (close) expect(stack.pop()).toBe(name);
    else stack.push(name!);
  }
  expect(html.slice(at)).not.toMatch(/[<>]/);
  expect(stack).toEqual([]);
}

/** The whole text of each output block is shown or carried by a file of the messages. */
function outputsKept(v: View, shown: string, files: { name: string; data: Buffer | string }[], escape: (t: string) => string): void {
  for (const b of v.blocks) {
    if (b.kind !== 'output') continue;
    const carried = files.some((f) => f.name === `${b.stream}.txt` && Buffer.isBuffer(f.data) && f.data.toString() === Buffer.from(b.text).toString());
    if (!carried) expect(shown).toContain(escape(neutraliseFences(b.text.replace(/\s+$/, ''))));
  }
}

describe('the renderers render any view well-formed and within limits', () => {
  it('Slack: sections ≤ 3000 characters, ≤ 50 blocks, fences even, nothing live, outputs kept', () => {
    fc.assert(
      fc.property(view, (v) => {
        const messages: SlackOut[] = slackRenderer.render(v);
        expect(messages.length).toBeGreaterThan(0);
        const uploads = messages.flatMap((m) => m.uploads ?? []);
        let shown = '';
        for (const m of messages) {
          const sections = Array.isArray(m.text) ? m.text : [m.text];
          const buttons = m.buttons ?? [];
          expect(sections.length + (buttons.length ? 2 : 0)).toBeLessThanOrEqual(50);
          expect(buttons.length).toBeLessThanOrEqual(25);
          for (const b of buttons) expect(b.text.length).toBeGreaterThan(0), expect(b.text.length).toBeLessThanOrEqual(75);
          for (const s of [...sections, m.plain ?? '']) {
            expect(s.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
            expect(fenceCount(s) % 2).toBe(0);
            slackInert(s);
            if (wellFormedView(v)) expect(s.isWellFormed()).toBe(true);
          }
          for (const s of sections) expect(s.trim()).not.toBe('');
          shown += sections.join('\n');
        }
        outputsKept(v, shown, uploads.map((u) => ({ name: u.filename, data: u.content ?? u.path ?? '' })), escapeMrkdwn);
      }),
      RUNS,
    );
  });

  it('Discord: content ≤ 2000 characters, fences even, no mention allowed, ≤ 10 files, ≤ 5 rows of 5 buttons, outputs kept', () => {
    fc.assert(
      fc.property(view, (v) => {
        const messages = discordRenderer.render(v);
        expect(messages.length).toBeGreaterThan(0);
        for (const m of messages) {
          expect(m.content.length).toBeLessThanOrEqual(MESSAGE_CHARS);
          expect(m.content.length + (m.files?.length ?? 0) + (m.components?.length ?? 0)).toBeGreaterThan(0);
          expect(fenceCount(m.content) % 2).toBe(0);
          if (wellFormedView(v)) expect(m.content.isWellFormed()).toBe(true);
          expect(toOptions(m).allowedMentions).toEqual({ parse: [], repliedUser: false });
          expect(m.files?.length ?? 0).toBeLessThanOrEqual(10);
          expect(m.components?.length ?? 0).toBeLessThanOrEqual(5);
          for (const row of m.components ?? []) {
            expect(row.components.length).toBeLessThanOrEqual(5);
            for (const b of row.components) {
              expect('label' in b && b.label!.length <= 80 && b.label!.length > 0).toBe(true);
              expect('custom_id' in b && b.custom_id.length <= 100).toBe(true);
            }
          }
        }
        outputsKept(v, messages.map((m) => m.content).join('\n'), messages.flatMap((m) => m.files ?? []), (t) => t);
      }),
      RUNS,
    );
  });

  it('Matrix: each event ≤ its byte budget, valid HTML of the subset, fences even in the body, @room broken, outputs kept', () => {
    fc.assert(
      fc.property(view, (v) => {
        const messages = matrixRenderer.render(v);
        expect(messages.length).toBeGreaterThan(0);
        for (const m of messages) {
          expect(contentBytes(m)).toBeLessThanOrEqual(CONTENT_BYTES);
          validMatrixHtml(m.html);
          expect(fenceCount(m.body) % 2).toBe(0);
          expect(m.body).not.toMatch(/@room\b/i);
          expect(m.html).not.toMatch(/@room\b/i);
          if (wellFormedView(v)) expect(m.body.isWellFormed() && m.html.isWellFormed()).toBe(true);
        }
        const files = messages.flatMap((m) => m.files ?? []);
        outputsKept(v, messages.map((m) => m.body).join('\n'), files, (t) => t.replace(/@room\b/gi, (r) => `@\u200b${r.slice(1)}`));
      }),
      RUNS,
    );
  });
});

describe('each kind of block renders on each platform', () => {
  const views: View[] = BLOCK_KINDS.map((kind) => ({ blocks: [fc.sample(blockOf[kind], { numRuns: 1, seed: 42 })[0]!] }));
  it.each(views.map((v, i) => [BLOCK_KINDS[i], v] as const))('%s', (_kind, v) => {
    expect(slackRenderer.render(v).length).toBeGreaterThan(0);
    expect(discordRenderer.render(v).length).toBeGreaterThan(0);
    expect(matrixRenderer.render(v).length).toBeGreaterThan(0);
  });
});
