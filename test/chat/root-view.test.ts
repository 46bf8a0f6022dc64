/**
 * The message a run's thread hangs from, composed once (src/chat/view/root-view.ts): Slack's channel
 * message, Discord's header and a schedule's root on Matrix say the same words in every state; the
 * person is a mention only on Discord (sent with no allowed mention), and hostile request text stays
 * inert everywhere.
 */
import { describe, expect, it } from 'vitest';
import type { Run } from '../../src/history/types.js';
import { againView, endedRootSpec, requestRootSpec, rootView, runRootSpec, threadTitle, type RootSpec } from '../../src/chat/view/root-view.js';
import type { IncomingRequest } from '../../src/chat/incoming-port.js';
import { rootMessage as slackRoot } from '../../adapters/slack/renderer.js';
import { againMessage, rootMessage as discordRoot } from '../../adapters/discord/renderer.js';
import { matrixRenderer } from '../../adapters/matrix/renderer.js';
import { toOptions } from '../../adapters/discord/surface.js';

const HOSTILE = 'sum <!channel> ``` @everyone *bold* <@U1> & more';

function run(status: Run['status'], error?: string): Run {
  return {
    id: 'r-7',
    conversationId: 'c',
    requirement: HOSTILE,
    requestedBy: '123456789012345678',
    chat: { thread: { channel: 'C1', thread: '1.2' }, kind: 'run', userName: 'Alice' },
    status,
    attempts: [{ index: 1, trigger: 'requirement', code: 'print(1)', usage: { promptTokens: 0, completionTokens: 0 }, createdAt: '2026-01-01T00:00:00Z' }],
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...(error ? { error } : {}),
  };
}

const slack = (spec: RootSpec) => slackRoot(spec).sections.join('\n');
const discord = (spec: RootSpec) => discordRoot(spec).content;
const matrix = (spec: RootSpec) => matrixRenderer.render(rootView(spec))[0]!.body;
const platforms = { slack, discord, matrix };

describe('a run\'s root message', () => {
  it.each([
    ['working', { state: 'working' } as const, '⏳ Working…'],
    ['ended', { state: 'ended', run: run('success') } as const, '✅ Success · 1 attempt · run `r-7`'],
    ['failed', { state: 'failed', reason: 'the model did not answer' } as const, '❌ Failed: the model did not answer'],
  ])('%s: every platform says who asked, the status in the same words, and where to reply', (_name, state, words) => {
    const spec = runRootSpec(run('success'), state);
    for (const [name, render] of Object.entries(platforms)) {
      const text = render(spec);
      expect(text, name).toContain(' asked: sum');
      expect(text, name).toContain('Status:');
      expect(text, name).toContain(words);
      expect(text, name).toContain('Results are in the thread; reply there to improve.');
    }
  });

  it('names the person: a mention on Discord (no allowed mention), the name on Slack and Matrix', () => {
    const spec = runRootSpec(run('success'), { state: 'working' });
    expect(discord(spec)).toMatch(/^<@123456789012345678> asked: /);
    expect(toOptions(discordRoot(spec)).allowedMentions).toEqual({ parse: [], repliedUser: false });
    expect(slack(spec)).toMatch(/^\*Alice\* asked: /);
    expect(matrix(spec)).toMatch(/^\*\*Alice\*\* asked: /);
  });

  it('keeps hostile request text inert on every platform', () => {
    const spec = runRootSpec(run('failed', 'boom ``` <!here>'), { state: 'ended', run: run('failed', 'boom ``` <!here>') });
    const s = slack(spec);
    expect(s).not.toMatch(/<!channel>|<!here>|<@U1>/);
    expect(s).toContain('&lt;!channel&gt;');
    const d = discord(spec);
    expect((d.match(/```/g) ?? []).length).toBe(0);
    expect(matrixRenderer.render(rootView(spec))[0]!.html).not.toContain('<!channel>');
  });

  it('an Improve is run again for the person who asked it, in the same words everywhere', () => {
    const spec = runRootSpec(run('success'), { state: 'again', action: 'improve', who: { id: 'U2', name: 'Bob' } });
    expect(slack(spec)).toContain('💬 Improving, as *Bob* asked…');
    expect(matrix(spec)).toContain('💬 Improving, as **Bob** asked…');
  });

  it('a scheduled run and a /generate say so; in place, no thread is promised and the note says why', () => {
    const scheduled: RootSpec = { kind: 'scheduled', requirement: 'report', who: { id: '123456789012345678' }, state: { state: 'working' }, inThread: false, note: 'ℹ️ Threads cannot be started here, so I reply in place.' };
    expect(discord(scheduled)).toBe('<@123456789012345678> scheduled: report\n**Status:** ⏳ Working…\nℹ️ Threads cannot be started here, so I reply in place.');
    expect(slack({ ...scheduled, kind: 'generate', who: { id: 'U1', name: 'Al' } })).toContain('*Al* asked for code: report');
  });
});

describe('the answer to a Re-run or an Improve (Discord)', () => {
  it('says which run, by whom, how it ended, and quotes the feedback', () => {
    const working = againMessage({ action: 'rerun', runId: 'r-7', who: { id: '123456789012345678' } }).content;
    expect(working).toBe('**🔁 Re-run** of run `r-7` by <@123456789012345678>');
    const ended = againMessage({ action: 'improve', runId: 'r-7', who: { id: '123456789012345678' }, feedback: 'use ``` fewer rows', ended: { run: run('success') } }).content;
    expect(ended).toContain(': ✅ Success · 1 attempt · run `r-7`');
    expect(ended).toContain('_use');
    expect(againView({ action: 'improve', runId: 'r-7', who: { id: 'x' }, ended: { run: undefined } }).blocks).toHaveLength(1);
  });
});

/** A `/generate` request as a platform hands it to the pipeline. */
const request: IncomingRequest = {
  platform: 'slack',
  kind: 'generate',
  deliveryId: 'd1',
  who: { userId: 'U1', key: 'slack:T:U1', userName: 'Alice' },
  where: { conversation: 'slack:T:C1', channel: 'C1' },
  text: '  plot the sales  ',
  files: [],
  receivedAt: 0,
  origin: {},
};

describe('a root message at the end of a turn (Slack\'s channel message, Discord\'s header)', () => {
  it('shows the run\'s status line when the turn made a run', () => {
    const spec = endedRootSpec(run('success'), undefined, request)!;
    expect(slack(spec)).toContain('✅ Success · 1 attempt · run `r-7`');
    expect(spec.requirement).toBe(HOSTILE);
  });

  it('without a run, the request the root was posted for says it failed and why; without that request, the root stays', () => {
    const spec = endedRootSpec(undefined, 'the model did not answer', request)!;
    expect(slack(spec)).toBe('*Alice* asked for code: plot the sales\n*Status:* ❌ Failed: the model did not answer\n_Results are in the thread; reply there to improve._');
    expect(discord(endedRootSpec(undefined, undefined, request)!)).toContain('❌ Failed: failed');
    expect(endedRootSpec(undefined, 'boom', undefined)).toBeUndefined();
  });

  it('a request\'s root before its run exists: in place, no thread is promised', () => {
    const spec = requestRootSpec(request, { state: 'working' }, false);
    expect(matrix(spec)).toBe('**Alice** asked for code: plot the sales\n**Status:** ⏳ Working…');
  });
});

describe('a thread\'s title from its request', () => {
  it('is one line within the limit, marked when cut, never half a character; the fallback when there is no text', () => {
    expect(threadTitle('  sum\n the   rows ', 100)).toBe('sum the rows');
    const cut = threadTitle('😀'.repeat(60), 80);
    expect(cut.length).toBeLessThanOrEqual(80);
    expect(cut.endsWith('😀…')).toBe(true);
    expect(threadTitle(' \n ', 80, 'files')).toBe('files');
    expect(threadTitle('', 100)).toBe('code-agent run');
  });
});
