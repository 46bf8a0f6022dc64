/**
 * The answers to a requester composed once as views (src/chat/view/): what each answer's blocks
 * hold, and how the one answer markup fits a view into one message of a platform's renderer. The
 * renderer here is a small one of the test's own (markup like Markdown, a character limit per
 * message), so the assertions are on the composition, not on a platform's markup.
 */
import { describe, expect, it } from 'vitest';
import { slackRenderer } from '../../adapters/slack/renderer.js';
import { discordRenderer } from '../../adapters/discord/renderer.js';
import { matrixRenderer } from '../../adapters/matrix/renderer.js';
import type { Block, Line, View, ViewRenderer } from '../../src/chat/view/blocks.js';
import { plainText } from '../../src/chat/view/blocks.js';
import { answerMarkup } from '../../src/chat/view/answer-markup.js';
import { historyView } from '../../src/chat/view/history-view.js';
import { showView } from '../../src/chat/view/show-view.js';
import { wordSpelling } from '../../src/chat/view/show-spelling.js';
import { noticeView, textLine, textView } from '../../src/chat/view/text-view.js';
import type { CommandNames } from '../../src/chat/incoming-port.js';
import type { Run } from '../../src/history/types.js';
import type { ExecutionResult } from '../../src/history/execution.js';
import type { WorkspaceManifest } from '../../src/history/workspace.js';
import { chatOf } from '../../src/chat/run-chat.js';

const NAMES: CommandNames = { run: '/run', generate: '/generate', history: '/history', show: '/show', remember: '/remember', memory: '/memory', schedule: '/schedule', schedules: '/schedules', unschedule: '/unschedule', programs: '/programs', program: '/program' };

/** Inline pieces as the test's markup: **strong**, _emphasis_, `code`, [label](url), <time>. */
function inline(line: Line): string {
  return line
    .map((p) => {
      if (typeof p === 'string') return p;
      if ('strong' in p) return `**${p.strong}**`;
      if ('emphasis' in p) return `_${p.emphasis}_`;
      if ('code' in p) return `\`${p.code}\``;
      if ('struck' in p) return `~${p.struck}~`;
      if ('link' in p) return `[${p.link}](${p.url})`;
      return `<${p.time}>`;
    })
    .join('');
}

function block(b: Block): string {
  switch (b.kind) {
    case 'heading':
    case 'text':
      return inline(b.text);
    case 'code':
      return `${b.label ? `${inline(b.label)}\n` : ''}\`\`\`${b.language ?? ''}\n${b.code}\n\`\`\``;
    case 'output':
      return `${b.label ? `${inline(b.label)}\n` : ''}\`\`\`\n${b.text.split('\n').slice(0, b.maxLines ?? 40).join('\n')}\n\`\`\``;
    case 'fields':
      return b.fields.map((f) => `${f.label}: ${inline(f.value)}`).join('\n');
    case 'actions':
      return b.actions.map((a) => `[${a.label}]`).join(' ');
    case 'files':
      return b.files.map((f) => f.name).join(', ');
  }
}

/** The test's renderer: blocks joined by lines, a new message whenever `max` characters would be passed. */
function testRenderer(max: number): ViewRenderer<string> {
  return {
    render(view: View) {
      const out: string[] = [];
      let current = '';
      for (const b of view.blocks.map(block)) {
        const next = current ? `${current}\n${b}` : b;
        if (next.length > max && current) {
          out.push(current);
          current = b;
        } else current = next;
      }
      return [...out, current];
    },
  };
}

const result = (over: Partial<ExecutionResult> = {}): ExecutionResult => ({ success: true, stdout: '42\n', stderr: '', exitCode: 0, signal: null, timedOut: false, durationMs: 120, artifacts: [], ...over });

const run = (id: string, over: Partial<Run> = {}): Run => ({
  id,
  conversationId: 'slack:T1:C1',
  requirement: `requirement of ${id}`,
  requestedBy: 'U1',
  status: 'success',
  attempts: [{ index: 1, trigger: 'requirement', code: 'print(42)', result: result(), usage: { promptTokens: 1, completionTokens: 1 }, createdAt: '2026-01-01T00:00:00.000Z' }],
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T03:04:05.000Z',
  ...over,
});

const texts = (view: View) => view.blocks.map((b) => ('text' in b && Array.isArray(b.text) ? plainText(b.text) : b.kind === 'code' ? b.code : b.kind === 'output' ? b.text : '')).join('\n');

describe('our plain texts', () => {
  it('turn backticked commands into inline code and keep the rest as written', () => {
    expect(textLine('Say which run: `/show <id> remove` deletes it.')).toEqual(['Say which run: ', { code: '/show <id> remove' }, ' deletes it.']);
    expect(textLine('no code here')).toEqual(['no code here']);
    expect(textLine('')).toEqual(['']);
    // a fence is not a span: it stays plain text for the renderer to neutralise
    expect(textLine('a ``` b')).toEqual(['a ``` b']);
    expect(textView('x `y`').blocks).toEqual([{ kind: 'text', text: ['x ', { code: 'y' }] }]);
  });

  it('show a notice as its title, then its lines in one code block, counting those left out', () => {
    const hostile = 'revenue <!channel> @everyone ``` closing\n```python';
    expect(noticeView({ title: '🧠 Memory', lines: [] }).blocks).toEqual([{ kind: 'text', text: ['🧠 Memory'] }]);
    const view = noticeView({ title: '🧠 Memory', lines: [hostile, 'two', 'three'] }, 1);
    expect(view.blocks[1]).toEqual({ kind: 'code', code: `${hostile}\n… and 2 more`, file: 'lines.txt' });
  });
});

describe('/history', () => {
  it('lists each run with its mark, id, requirement, time, who asked and its thread link', () => {
    const runs = [run('r2', { status: 'failed', chat: { thread: { channel: 'C1', thread: '1.2' }, kind: 'run', userName: 'alice' } }), run('r1', { requirement: 'x'.repeat(500) })];
    const view = historyView({ runs }, wordSpelling(NAMES), (r) => (chatOf(r) ? `https://example.test/${r.id}` : undefined));
    expect(view.blocks[0]).toEqual({ kind: 'heading', text: [{ strong: 'Recent runs in this channel' }, ' (newest first; ', { code: '/show <run id>' }, ' shows one)'] });
    const rows = plainText((view.blocks[1] as { text: Line }).text).split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toBe('❌ failed · r2 · requirement of r2 · 2026-01-02T03:04:05.000Z · alice · thread');
    expect(rows[1]!.length).toBeLessThan(200); // the long requirement is one bounded line
    expect(rows[1]).toMatch(/more characters\)/);
    expect((view.blocks[1] as { text: Line }).text).toContainEqual({ link: 'thread', url: 'https://example.test/r2' });
    expect((view.blocks[1] as { text: Line }).text).toContainEqual({ time: '2026-01-02T03:04:05.000Z' });
  });

  it('keeps the newest rows that fit in one message', () => {
    const runs = Array.from({ length: 30 }, (_, i) => run(`r${30 - i}`));
    const markup = answerMarkup(testRenderer(600));
    const answer = markup.history({ runs }, NAMES);
    expect(answer.length).toBeLessThanOrEqual(600);
    expect(answer).toContain('`r30`');
    expect(answer).not.toContain('`r1`');
    const rows = answer.split('\n').slice(1);
    expect(rows.length).toBeGreaterThan(3);
    // whole rows only, newest first
    expect(rows.map((r) => /`(r\d+)`/.exec(r)![1])).toEqual(runs.slice(0, rows.length).map((r) => r.id));
  });
});

describe('/show', () => {
  const listing: WorkspaceManifest = { files: [{ name: 'data.csv', hash: 'ab', bytes: 10, origin: { kind: 'input', turn: 1, at: '2026-01-01T00:00:00.000Z' } }] };

  it('holds the outcome, the requirement, the workspace with how to remove, the latest code and its result', () => {
    const view = showView({ run: run('r1'), workspace: listing }, wordSpelling(NAMES));
    const all = texts(view);
    expect(all).toContain('Run r1 · ✅ Success · 1 attempt');
    expect(all).toContain('requirement of r1');
    expect(all).toContain('data.csv');
    expect(all).toContain('/show r1 remove <name> removes one; /show r1 remove deletes the run');
    expect(view.blocks).toContainEqual(expect.objectContaining({ kind: 'code', code: 'print(42)', language: 'python' }));
    expect(view.blocks).toContainEqual(expect.objectContaining({ kind: 'output', text: '42\n', stream: 'stdout' }));
    expect(texts(showView({ run: run('r1', { attempts: [] }), workspace: { files: [] } }, wordSpelling(NAMES)))).toContain('This run has no code yet.');
  });

  it('drops the result, then the code, until the answer fits in one message', () => {
    const big = run('r1', { attempts: [{ ...run('r1').attempts[0]!, code: 'print(1)\n'.repeat(30), result: result({ stdout: `${'y'.repeat(60)}\n`.repeat(200) }) }] });
    const full = answerMarkup(testRenderer(100_000)).show({ run: big, workspace: listing }, NAMES);
    expect(full).toContain('Result of attempt 1');
    const mid = answerMarkup(testRenderer(650)).show({ run: big, workspace: listing }, NAMES);
    expect(mid).toContain('print(1)');
    expect(mid).not.toContain('Result of attempt 1');
    const head = answerMarkup(testRenderer(400)).show({ run: big, workspace: listing }, NAMES);
    expect(head).not.toContain('print(1)');
    expect(head).toContain("Latest code: attempt 1, in the run's thread");
  });

  it("says the platform's spelling of the command's options", () => {
    const discord = { one: (id: string) => `/show run:${id}`, removeFile: (id: string) => `/show run:${id} remove:<name>`, deleteRun: (id: string) => `/show run:${id} delete_run:True` };
    const answer = answerMarkup(testRenderer(100_000), { spelling: () => discord }).show({ run: run('r1'), workspace: listing }, NAMES);
    expect(answer).toContain('`/show run:r1 remove:<name>` removes one; `/show run:r1 delete_run:True` deletes the run');
  });
});

describe('notices as answers (memory, programs, usage)', () => {
  it('keep as many whole lines as fit and count the rest', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `m${i} · definition number ${i}`);
    const answer = answerMarkup(testRenderer(500)).memory({ title: '🧠 Memory of this channel', lines });
    expect(answer.length).toBeLessThanOrEqual(500);
    expect(answer).toContain('m0 · definition number 0');
    const more = /… and (\d+) more/.exec(answer);
    expect(more).not.toBeNull();
    const shown = answer.split('\n').filter((l) => /^m\d+ · /.test(l)).length;
    expect(shown + Number(more![1])).toBe(100);
    expect(answer.split('```')).toHaveLength(3);
  });

  it('answer a platform type of their own through `answer`', () => {
    const markup = answerMarkup(testRenderer(1000), { answer: (m: string) => ({ content: m }) });
    expect(markup.text('hi `/run`')).toEqual({ content: 'hi `/run`' });
  });
});

describe('a moment in a line', () => {
  it("is shown in each platform's own way after the line is split and bounded (Slack's date, Discord's relative time, Matrix's UTC)", () => {
    const view: View = { blocks: [{ kind: 'text', text: ['run at ', { time: '2026-01-02T03:04:05.000Z' }, '\nnext line'] }] };
    expect(JSON.stringify(slackRenderer.render(view))).toContain('<!date^1767323045^');
    expect(JSON.stringify(discordRenderer.render(view))).toContain('<t:1767323045:R>');
    expect(JSON.stringify(matrixRenderer.render(view))).toContain('2026-01-02 03:04 UTC');
  });
});
