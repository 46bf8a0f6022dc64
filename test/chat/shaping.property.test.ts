/**
 * Properties of the output shaping of each surface, for arbitrary stdout/stderr/exception text
 * (any length, backticks, `&<>`, mentions, invalid UTF-8, emoji, right-to-left marks): every
 * message stays within its platform's limits, fences are balanced, nothing pings, the text stays
 * well-formed, and nothing is lost silently (a file carries the full text whenever a message was cut).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutraliseFences } from '../../src/chat/format.js';
import type { Run } from '../../src/history/types.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';
import { discordAnswers } from '../../adapters/discord/answers.js';
import type { CommandNames } from '../../src/chat/incoming-port.js';
import { againMessage, discordThreadMarkup, MESSAGE_CHARS, rootMessage as discordRoot, type Outgoing } from '../../adapters/discord/renderer.js';
import { toOptions, withoutFiles } from '../../adapters/discord/surface.js';
import { SECTION_TEXT_MAX, escapeMrkdwn, rootMessage as slackRoot, slackThreadMarkup, type SlackOut } from '../../adapters/slack/renderer.js';
import { runRootSpec } from '../../src/chat/view/root-view.js';
import { formatOutput, progressLine } from '../../adapters/cli/render.js';
import { TERMINAL_STREAM_CHARS } from '../../adapters/cli/bounded-output.js';
import { summarizeFailure } from '../../src/agent/failures/index.js';
import { executionResult, fenceCount, untrusted } from './arbitraries.js';

/** Discord's command names, as its answers spell them. */
const DISCORD_NAMES: CommandNames = { run: '/run', generate: '/generate', history: '/history', show: '/show', remember: '/remember', memory: '/memory', schedule: '/schedule', schedules: '/schedules', unschedule: '/unschedule', programs: '/programs', program: '/program' };

const RUNS = { numRuns: 150 };

const improving = (reason: string) => ({ view: 'improving' as const, retry: 1, maxRetries: 3, attempt: 2, lastAttempt: 4, reason });
const finalMessage = (run: Run): Outgoing => discordThreadMarkup.final(run, undefined);
const improvingMessage = (reason: string): Outgoing => discordThreadMarkup.improving(improving(reason));
/** The code message of a run's first attempt, as its thread shows it once written. */
const codeOf = (run: Run): Outgoing => {
  const attempt = run.attempts[0]!;
  return discordThreadMarkup.code({ view: 'code', attempt: attempt.index, trigger: attempt.trigger, code: attempt.code, lastAttempt: 1 }, false).edit;
};
/** A Slack message's sections. */
const sections = (msg: SlackOut): string[] => ([] as string[]).concat(msg.text);

function runWith(result: ExecutionResult, error: string, requirement: string): Run {
  return {
    id: 'r1',
    conversationId: 'c',
    requirement,
    status: result.success ? 'success' : 'failed',
    attempts: [{ index: 1, trigger: 'requirement', code: 'print(1)', result, usage: { promptTokens: 0, completionTokens: 0 }, createdAt: '2026-01-01T00:00:00Z' }],
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...(result.success ? {} : { error }),
  };
}

/** Every `&` starts one of Slack's three entities, and no `<` or `>` is left: no control sequence survives. */
function slackInert(text: string): boolean {
  return !/[<>]/.test(text) && !/&(?!amp;|lt;|gt;)/.test(text);
}

describe('Discord shaping (2000 characters per message)', () => {
  it('result messages fit, keep fences balanced, and attach each stream they cut', () => {
    fc.assert(
      fc.property(executionResult, (result) => {
        const messages = discordThreadMarkup.result({ view: 'result', attempt: 1, lastAttempt: 1, result });
        for (const m of messages) {
          expect(m.content.length).toBeLessThanOrEqual(MESSAGE_CHARS);
          expect(fenceCount(m.content) % 2).toBe(0);
          if (result.stdout.isWellFormed() && result.stderr.isWellFormed()) expect(m.content.isWellFormed()).toBe(true);
        }
        const msg = { content: messages.map((m) => m.content).join('\n'), files: messages.flatMap((m) => m.files ?? []) };
        for (const stream of ['stdout', 'stderr'] as const) {
          if (result[stream] === '') continue;
          const attached = msg.files?.find((f) => f.name === `attempt-1-${stream}.txt`);
          if (attached) expect(Buffer.from(attached.data).toString()).toBe(Buffer.from(result[stream]).toString());
          else expect(msg.content).toContain(neutraliseFences(result[stream].replace(/\s+$/, '')));
        }
      }),
      RUNS,
    );
  });

  it('auto-fix, header, Improve, final and show messages fit; the auto-fix error is attached when cut', () => {
    fc.assert(
      fc.property(untrusted, executionResult, untrusted, (reason, result, requirement) => {
        const fix = improvingMessage(reason);
        expect(fix.content.length).toBeLessThanOrEqual(MESSAGE_CHARS);
        expect(fenceCount(fix.content) % 2).toBe(0);
        if (!fix.content.includes(neutraliseFences(reason.replace(/\s+$/, '')))) expect(fix.files?.[0]?.data.toString()).toBe(reason);
        const run = runWith(result, summarizeFailure(result), requirement);
        const header = discordRoot({ kind: 'run', requirement, who: { id: '123456789012345678' }, state: { state: 'working' }, inThread: true });
        expect(header.content).toContain('<@123456789012345678>');
        const again = againMessage({ action: 'improve', runId: 'r1', who: { id: '42', name: requirement }, feedback: reason, ended: { run } });
        for (const msg of [header, discordRoot(runRootSpec(run, { state: 'ended', run })), again, finalMessage(run), discordAnswers.show({ run, workspace: { files: [] } }, DISCORD_NAMES), codeOf(run)]) {
          expect(msg.content.length).toBeLessThanOrEqual(MESSAGE_CHARS);
          expect(fenceCount(msg.content) % 2).toBe(0);
        }
      }),
      RUNS,
    );
  });

  it('never pings, and a message whose files were refused still fits and names them', () => {
    fc.assert(
      fc.property(executionResult, untrusted, (result, reason) => {
        for (const msg of discordThreadMarkup.result({ view: 'result', attempt: 1, lastAttempt: 1, result })) expect(toOptions(msg).allowedMentions).toEqual({ parse: [], repliedUser: false });
        const msg = discordThreadMarkup.result({ view: 'result', attempt: 1, lastAttempt: 1, result })[0]!;
        expect(toOptions(msg).allowedMentions).toEqual({ parse: [], repliedUser: false });
        const fallback = withoutFiles({ ...msg, files: [{ name: 'stdout.txt', data: Buffer.from('x') }] }, reason);
        expect(fallback.content.length).toBeLessThanOrEqual(MESSAGE_CHARS);
        expect(fallback.content).toContain('stdout.txt');
        expect(fenceCount(fallback.content) % 2).toBe(0);
      }),
      RUNS,
    );
  });
});

/** An unconfirmed run awaiting a person's choice between two answers whose text is hostile, its reason quoting both («…»). */
function settlingRun(first: string, second: string, requirement: string): Run {
  const base = runWith({ success: true, stdout: first, stderr: '', exitCode: 0, signal: null, timedOut: false, durationMs: 5, artifacts: [] } as unknown as ExecutionResult, '', requirement);
  const candidate = (n: number, output: string) => ({ n, from: n === 1 ? ('attempt' as const) : ('independent' as const), attempt: 1, programs: n === 1 ? [] : [1], code: 'print(1)', output, artifacts: [], reading: output.slice(0, 80), backers: 1 });
  return { ...base, status: 'unverified', error: `an independent program written to cross-check it printed «${second}» where this one printed «${first}»; either may be wrong`, candidates: [candidate(1, first), candidate(2, second)] };
}

describe('every final message stays well-formed after its last transformation (case B1)', () => {
  it('B1: 1,800 backticks printed by both answers keep the Discord and Slack final messages balanced and within limits', () => {
    const ticks = '`'.repeat(1800);
    const run = settlingRun(ticks, `${ticks}!`, 'print 1800 backticks');
    const discord = finalMessage(run).content;
    expect(discord.length).toBeLessThanOrEqual(MESSAGE_CHARS);
    expect(fenceCount(discord) % 2).toBe(0);
    expect(discord).toContain('The answers differ');
    for (const text of [...sections(slackThreadMarkup.final(run, undefined)), ...slackRoot(runRootSpec(run, { state: 'ended', run })).sections]) {
      expect(text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
      expect(fenceCount(text) % 2).toBe(0);
    }
  });

  it('any two candidate answers: the final message fits and its fences are balanced', () => {
    fc.assert(
      fc.property(untrusted, untrusted, untrusted, (first, second, requirement) => {
        const run = settlingRun(first, second, requirement);
        const discord = finalMessage(run).content;
        expect(discord.length).toBeLessThanOrEqual(MESSAGE_CHARS);
        expect(fenceCount(discord) % 2).toBe(0);
        for (const text of [...sections(slackThreadMarkup.final(run, undefined)), ...slackRoot(runRootSpec(run, { state: 'ended', run })).sections]) {
          expect(text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
          expect(fenceCount(text) % 2).toBe(0);
        }
      }),
      RUNS,
    );
  });
});

describe('Slack shaping (3000 characters per section)', () => {
  it('result sections fit, are inert, keep fences balanced, and report each stream they cut', () => {
    fc.assert(
      fc.property(executionResult, (result) => {
        const messages = slackThreadMarkup.result({ view: 'result', attempt: 1, lastAttempt: 4, result });
        const uploaded = (stream: string) => messages.some((m) => m.uploads?.some((u) => u.filename === `attempt-1-${stream}.txt`));
        const all = messages.flatMap(sections);
        for (const text of all) {
          expect(text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
          expect(slackInert(text)).toBe(true);
          expect(fenceCount(text) % 2).toBe(0);
          if (result.stdout.isWellFormed() && result.stderr.isWellFormed()) expect(text.isWellFormed()).toBe(true);
        }
        const joined = all.join('\n');
        if (result.stdout && !uploaded('stdout')) expect(joined).toContain(escapeMrkdwn(neutraliseFences(result.stdout.replace(/\s+$/, ''))));
        if (result.stderr && !uploaded('stderr')) expect(joined).toContain(escapeMrkdwn(neutraliseFences(result.stderr.replace(/\s+$/, ''))));
      }),
      RUNS,
    );
  });

  it('status, auto-fix, final and channel messages fit and are inert', () => {
    fc.assert(
      fc.property(executionResult, untrusted, untrusted, (result, reason, requirement) => {
        const run = runWith(result, reason, requirement);
        const texts = [...sections(slackThreadMarkup.improving(improving(reason))), ...sections(slackThreadMarkup.final(run, undefined)), ...slackRoot(runRootSpec(run, { state: 'ended', run })).sections, ...slackRoot(runRootSpec(run, { state: 'failed', reason })).sections];
        for (const text of texts) {
          expect(text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
          expect(fenceCount(text) % 2).toBe(0);
          expect(slackInert(text)).toBe(true);
        }
      }),
      RUNS,
    );
  });
});

describe('CLI shaping', () => {
  it('progress lines are one bounded line; output is bounded and says where the full text is', () => {
    fc.assert(
      fc.property(executionResult, untrusted, (result, error) => {
        const line = progressLine({ type: 'executed', runId: 'r', attempt: 1, result })!;
        expect(line).not.toContain('\n');
        expect(line.length).toBeLessThanOrEqual(600);
        const run = runWith(result, summarizeFailure({ ...result, stderr: error, success: false }), 'x');
        const failed = progressLine({ type: 'failed', run, reason: run.error ?? 'failed' })!;
        expect(failed.length).toBeLessThanOrEqual(700);
        const withPath = { ...result, fullOutput: { stdout: '/data/full-stdout.txt', stderr: '/data/full-stderr.txt' } };
        const out = formatOutput(withPath);
        expect(out.length).toBeLessThanOrEqual(2 * (TERMINAL_STREAM_CHARS + 200));
        for (const stream of ['stdout', 'stderr'] as const) {
          if (result[stream] !== '' && !out.includes(result[stream].trimEnd())) expect(out).toContain(`full text: /data/full-${stream}.txt`);
        }
      }),
      RUNS,
    );
  });
});
