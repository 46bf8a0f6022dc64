/**
 * The first answer is said while it is checked: in a thread, its "not yet confirmed" mark is one
 * message that the verdict edits in place. The real agent (verify checks), sandbox and profiler,
 * the fake LLM, and the one thread renderer on a thread of the test's own that records every post
 * and edit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import type { AgentEvent } from '../../src/agent/run/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { ThreadRenderer } from '../../src/chat/thread-renderer.js';
import type { ThreadMarkup } from '../../src/chat/port.js';
import { INDEPENDENT_INSTRUCTION } from '../../src/agent/verification/index.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeRequest } from '../fakes/openai-server.js';
import { isChecksRequest } from '../helpers/verify-replies.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const SALES = 'region,units\nNorth,3\nSouth,5\nNorth,2\n';
const RIGHT = "import pandas as pd\ndf = pd.read_csv('sales.csv')\nprint('North', df[df.region == 'North'].units.sum())";
const WRONG = "import pandas as pd\ndf = pd.read_csv('sales.csv')\nprint('North', (df.region == 'North').sum())";

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const markup: ThreadMarkup<string> = {
  progress: (line) => `progress:${line.step}`,
  partialCode: (attempt) => `partial:${attempt}`,
  code: (shown) => ({ edit: `code:${shown.attempt}` }),
  result: (view) => [`result:${view.attempt}:${view.result.stdout.trim()}`],
  notice: (notice) => `notice:${notice.title}`,
  improving: (view) => `improving:${view.attempt}`,
  final: (run) => `final:${run.status}`,
  failure: (reason) => `failure:${reason}`,
  note: (text) => `note:${text}`,
  withdrawn: (notice, correction) => `withdrawn:${notice}:${correction}`,
};

const isIndependent = (r: FakeRequest) => r.messages.at(-1)?.content.includes(INDEPENDENT_INSTRUCTION) ?? false;

/** Runs one request through the agent into a recording thread. */
async function runInThread(script: { code: string[]; independent: string[] }, verify: 'checks' | 'off' = 'checks') {
  const next = { code: 0, independent: 0 };
  fake = await startFakeOpenAi({
    replies: [],
    respond: (req) =>
      isChecksRequest(req) ? '# no checks' : isIndependent(req) ? script.independent[Math.min(next.independent++, script.independent.length - 1)]! : script.code[Math.min(next.code++, script.code.length - 1)]!,
  });
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
    store: new KeyvHistoryStore(new Map()),
    artifactRoot: tempDir('answer-artifacts-'),
    maxRetries: 2,
    verify,
  });
  const posts: string[] = [];
  const posted: string[] = []; // every post as it was made (edits do not change it)
  const edits: { at: number; msg: string }[] = [];
  const renderer = new ThreadRenderer<string, number>(
    { post: async (msg) => (posted.push(msg), posts.push(msg) - 1), edit: async (at, msg) => void (edits.push({ at, msg }), (posts[at] = msg)) },
    markup,
    { firstAttempt: 1, maxRetries: 2, workspace: async () => ({ files: [] }), onError: (err) => posts.push(`error:${String(err)}`) },
  );
  const events: AgentEvent[] = [];
  const run = await agent.run('cli:t', 'units sold in the North region', {
    inputFiles: [{ name: 'sales.csv', content: Buffer.from(SALES) }],
    onEvent: (e) => (events.push(e), renderer.listener(e)),
  });
  await renderer.finish(run, undefined, undefined);
  return { run, posts, posted, edits, events };
}

const mark = (posts: string[]) => posts.findIndex((p) => p.includes("Attempt 1's answer (above)"));

describe('the first answer, while it is checked', () => {
  it('shown as not yet confirmed before the independent program runs; the agreement edits the mark to confirmed', async () => {
    const { run, posts, posted, edits, events } = await runInThread({ code: [py(RIGHT)], independent: [py("print('North', 5)")] });
    expect(run.status).toBe('success');
    const types = events.map((e) => e.type);
    expect(types.indexOf('answer')).toBeGreaterThan(types.indexOf('executed'));
    expect(types.indexOf('answer')).toBeLessThan(types.indexOf('agreement'));
    const at = mark(posts);
    expect(at).toBe(posts.indexOf('result:1:North 5') + 1);
    expect(posted[at]).toBe("notice:⏳ Attempt 1's answer (above) is not yet confirmed: it is being checked.");
    expect(edits.filter((e) => e.at === at).map((e) => e.msg)).toEqual(["notice:✅ Attempt 1's answer (above) is confirmed."]);
    expect(posts[at]).toBe("notice:✅ Attempt 1's answer (above) is confirmed.");
  }, 60_000);

  it('the independent program disagrees: the mark says the answer is kept but unconfirmed', async () => {
    const { run, posts } = await runInThread({ code: [py(RIGHT)], independent: [py("print('North', 2)"), py("print('North', 9)")] });
    expect(run.status).toBe('unverified');
    expect(posts[mark(posts)]).toBe("notice:⚠️ Attempt 1's answer (above) is the run's answer, but it could not be confirmed (why below).");
  }, 60_000);

  it('a later attempt becomes the answer: the mark says which', async () => {
    // the first program's answer is checked against a check in the reply that fails; the second passes it
    const withCheck = (code: string) => `${py(code)}\n\`\`\`checks\nassert 'North 5' in OUTPUT, "North's units"\n\`\`\``;
    const { run, posts } = await runInThread({ code: [withCheck(WRONG), py(RIGHT)], independent: [py("print('North', 5)")] });
    expect(run.status).toBe('success');
    expect(run.attempts.at(-1)!.index).toBe(2);
    expect(posts[mark(posts)]).toBe("notice:↪️ Attempt 1's answer (above) was not confirmed: the run's answer is attempt 2's (below).");
  }, 60_000);

  it('with verify off the verdict comes with the answer: no mark', async () => {
    const { posts, events } = await runInThread({ code: [py(RIGHT)], independent: [] }, 'off');
    expect(events.some((e) => e.type === 'answer')).toBe(false);
    expect(mark(posts)).toBe(-1);
  }, 60_000);
});
