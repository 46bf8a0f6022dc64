/**
 * A check that guesses is not evidence (docs/verification.md): a failed check whose constant the
 * request does not state is set aside when an independent program prints the same answer; the
 * same check with a constant the request states still counts; values compare as values; two
 * attempts that print the same answer and fail the same checks end the run. The real openai client
 * against the fake OpenAI server, the real sandbox and the host's Python parser.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import type { AgentEvent, AgreementEvent } from '../../src/agent/run/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { agreementNotice } from '../../src/chat/verification.js';
import { EventViews } from '../../src/chat/event-view.js';
import { progressLine } from '../../adapters/cli/render.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { isCodeRequest, routedReplies } from '../helpers/verify-replies.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const VOWELS = 'Count the vowels in the sentence "The quick brown fox jumps over the lazy dog" and print the count';
const COUNT = 'print(sum(c in "aeiou" for c in "The quick brown fox jumps over the lazy dog".lower()))';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(script: { code: FakeReply[]; checks: string }, maxRetries = 3) {
  fake = await startFakeOpenAi({ replies: [routedReplies({ code: script.code, checks: [script.checks] })] });
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 5 } }),
    store: new KeyvHistoryStore(new Map()),
    artifactRoot: tempDir('guesses-artifacts-'),
    maxRetries,
    verify: 'checks',
  });
  const events: AgentEvent[] = [];
  return { agent, events, onEvent: (e: AgentEvent) => events.push(e), codeRequests: () => fake!.requests.filter(isCodeRequest) };
}

describe('a guessed constant', () => {
  it('against a right answer an independent program agrees with: no extra attempt, ✅, and the thread names the check set aside', async () => {
    // 11 vowels; the check writer counted 10 in its head
    const { agent, events, onEvent, codeRequests } = await setup({
      code: [py(COUNT), py('s = "The quick brown fox jumps over the lazy dog"\nprint(len([c for c in s.lower() if c in "aeiou"]))')],
      checks: py('assert int(OUTPUT.strip()) == 10, "ten vowels"'),
    });
    const run = await agent.run('cli:t', VOWELS, { onEvent });

    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(1);
    expect(codeRequests()).toHaveLength(2); // the attempt and one independent program, never four attempts
    expect(run.checks?.guesses).toEqual([{ check: 'assert int(OUTPUT.strip()) == 10, "ten vowels"', constant: '10' }]);
    expect(run.attempts[0]!.setAside).toMatchObject({ checks: ['assert int(OUTPUT.strip()) == 10, "ten vowels"'] });
    const agreement = events.find((e): e is AgreementEvent => e.type === 'agreement')!;
    expect(agreement).toMatchObject({ outcome: 'agreed', answer: '11', others: ['11'], setAside: [{ constant: '10' }] });
    const notice = agreementNotice(agreement);
    expect(notice.title).toContain('set aside');
    expect(notice.title).toContain('a constant the request does not state (a guess)');
    expect(notice.lines).toContain('set aside: assert int(OUTPUT.strip()) == 10, "ten vowels" (expects 10)');
    // every platform shows it: the chat's views (Slack, Discord, Matrix) and the terminal's line
    expect(new EventViews().of(agreement)).toEqual([{ view: 'notices', notices: [notice] }]);
    expect(progressLine(agreement)).toContain('set aside: assert int(OUTPUT.strip()) == 10');
    expect(events.some((e) => e.type === 'improving')).toBe(false);
  });

  it('the same check with a constant the request states still counts: a wrong answer gets its attempts, no independent program', async () => {
    const { agent, codeRequests } = await setup({
      code: [py('print(sum(c in "ao" for c in "banana split"))'), py('print(sum(c in "aeiou" for c in "banana split"))')],
      checks: py('assert int(OUTPUT.strip()) == 4, "four vowels"'),
    });
    const run = await agent.run('cli:t', 'Count the vowels in "banana split" (there are 4) and print the count');

    expect(run.checks?.guesses).toEqual([]);
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(2);
    expect(codeRequests()).toHaveLength(2);
    expect(codeRequests()[1]!.messages.at(-1)!.content).toContain('got 3, expected == 4'); // an improvement, not an independent program
  });

  it('against an independent program that prints another answer, the check stands; a second attempt with the same answer ends the run ⚠️ with the reason', async () => {
    const { agent, codeRequests } = await setup({
      code: [py(COUNT), py('print(12)'), py('s = "The quick brown fox jumps over the lazy dog"\nprint(len([c for c in s.lower() if c in "aeiou"]))')],
      checks: py('assert int(OUTPUT.strip()) == 10, "ten vowels"'),
    });
    const run = await agent.run('cli:t', VOWELS);

    expect(run.status).toBe('unverified');
    expect(codeRequests()).toHaveLength(3); // attempt 1, the independent program, attempt 2: not four attempts
    expect(run.attempts.filter((a) => a.keptFrom === undefined)).toHaveLength(2);
    expect(run.error).toBe(
      'attempts 1 and 2 printed the same answer («11»); the only check they fail is a guess, set aside: `assert int(OUTPUT.strip()) == 10, "ten vowels"` compares with 10, which the request does not state',
    );
  });
});

describe('values compared as values', () => {
  it("'21' against 21 agrees: ✅ with one attempt and no independent program", async () => {
    const { agent, codeRequests } = await setup({ code: [py('print(3 * 7)')], checks: py('assert OUTPUT == 21, "3 times 7"\nassert 21 in OUTPUT, "the product"') });
    const run = await agent.run('cli:t', 'multiply 3 by 7 and print the result');
    expect(run.status).toBe('success');
    expect(codeRequests()).toHaveLength(1);
    expect(run.attempts[0]!.result?.checks?.results).toMatchObject([
      { passed: true, byValue: true, detail: "got '21', expected == 21" },
      // `21 in '21'` raises a TypeError in Python: the printed text carries the value
      { passed: true, byValue: true, compared: { op: 'in', sides: ['21', '21'] } },
    ]);
  });

  it('a labelled and a bare list of the same values agree; different values still disagree', async () => {
    const request = 'convert ff (hex) and 777 (octal) to decimal and print them';
    const { agent } = await setup({
      code: [py('print("ff:", int("ff", 16))\nprint("777:", int("777", 8))')],
      checks: py('assert OUTPUT == [255, 511], "the values"'),
    });
    const run = await agent.run('cli:t', request);
    expect(run.status).toBe('success');
    expect(run.attempts[0]!.result?.checks?.results[0]).toMatchObject({ passed: true, byValue: true });

    const wrong = await setup({ code: [py('print("ff:", int("ff", 16))\nprint("777:", int("777", 8) + 1)')], checks: py('assert OUTPUT == [255, 511], "the values"') }, 0);
    const bad = await wrong.agent.run('cli:t', request);
    expect(bad.attempts[0]!.result?.checks?.results[0]).toMatchObject({ passed: false });
    expect(bad.attempts[0]!.result?.checks?.results[0]!.byValue).toBeUndefined();
  });
});

describe('attempts only where they can change the outcome', () => {
  it('two attempts that print the same answer and fail the same check end the run with that answer and the reason', async () => {
    // the check computes its expected text (evidence), and both attempts print the primes below 20, in two forms
    const checks = py(
      'expected = []\nn = 2\nwhile len(expected) < 20:\n    if all(n % p for p in expected):\n        expected.append(n)\n    n += 1\nassert OUTPUT.strip() == ",".join(map(str, expected)), "the first 20 primes"',
    );
    const { agent, codeRequests } = await setup({
      code: [py('print(",".join(str(p) for p in [2, 3, 5, 7, 11, 13, 17, 19]))'), py('print(", ".join(str(p) for p in [2, 3, 5, 7, 11, 13, 17, 19]))')],
      checks,
    });
    const run = await agent.run('cli:t', 'compute the first 20 prime numbers and print them as a comma-separated list');
    expect(run.status).toBe('unverified');
    expect(codeRequests()).toHaveLength(2); // not 4
    expect(run.error).toMatch(/^attempts 1 and 2 printed the same answer \(«2, 3, 5, 7, 11, 13, 17, 19»\) and failed the same check \(assert OUTPUT\.strip\(\) == ",".join/);
    expect(run.error).toContain('another attempt would not change the outcome');
  });
});
