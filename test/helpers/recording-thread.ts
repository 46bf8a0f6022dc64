/**
 * A minimal platform for tests of the one run lifecycle (src/chat/run-job.ts): a thread that records
 * what it is shown, in plain words, so a test can read the thread.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatThread, ThreadMarkup } from '../../src/chat/port.js';
import { parseConfig } from '../../src/config/load.js';
import { createApp, type App } from '../../src/app/app.js';
import type { RunJobDeps } from '../../src/chat/run-job.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';

/** A markup that names each view in plain words. */
export const wordsMarkup: ThreadMarkup<string> = {
  progress: (line) => `progress:${line.step}`,
  partialCode: (attempt) => `partial:${attempt}`,
  code: (shown) => ({ edit: `code:${shown.attempt}:${shown.code}` }),
  result: (view) => [`result:${view.attempt}:${view.result.stdout.trim()}`],
  notice: (notice) => `notice:${notice.title}`,
  improving: (view) => `improving:${view.attempt}`,
  final: (run) => `final:${run.status}:${run.attempts.length}`,
  failure: (reason) => `failure:${reason}`,
  note: (text) => `note:${text}`,
  withdrawn: (notice, correction) => `withdrawn:${notice}:${correction}`,
};

/** A thread that records its posts; `onInputs` runs where the platform would download the request's files. */
export function recordingThread(key: string, onInputs: () => Promise<void> = async () => undefined): ChatThread<string, number> & { posts: string[]; endedWith: string[] } {
  const posts: string[] = [];
  const endedWith: string[] = [];
  return {
    posts,
    endedWith,
    ref: { channel: 'C1', thread: key },
    key,
    markup: wordsMarkup,
    output: {
      post: async (msg) => posts.push(msg) - 1,
      edit: async (ref, msg) => void (posts[ref] = msg),
    },
    inputs: async () => {
      await onInputs();
      return [];
    },
    ended: async (run, failure) => void endedWith.push(run ? run.status : `none:${failure}`),
  };
}

/** The real app on a temp SQLite store and the fake LLM, for the run lifecycle's tests; `close` removes it all. */
export interface RunJobWorld {
  llm: FakeOpenAi;
  app: App;
  deps: RunJobDeps;
  /** What the lifecycle reported as internal errors and warnings. */
  warnings: string[];
  close(): Promise<void>;
}

/** Starts a {@link RunJobWorld} (agent: one retry, verify off; sandbox limits of 20 s). */
export async function startRunJobWorld(prefix: string): Promise<RunJobWorld> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const llm = await startFakeOpenAi({ replies: [] });
  const config = parseConfig(
    {
      llm: { provider: 'openai', base_url: llm.url, api_key: 'sk-test', model: 'fake-model', max_retries: 0, timeout_s: 20 },
      agent: { max_retries: 1, verify: 'off' },
      sandbox: { timeout_s: 20, cpu_time_s: 20, memory_mb: 1024 },
      store: { url: `sqlite://${join(dir, 'history.sqlite')}`, data_dir: join(dir, 'data') },
      log: { level: 'error' },
    },
    {},
  );
  const app = await createApp(config);
  const warnings: string[] = [];
  const deps: RunJobDeps = {
    agent: app.agent,
    store: app.store,
    onInternalError: (err) => warnings.push(String(err)),
    onWarning: (what, err) => warnings.push(`${what}: ${String(err)}`),
  };
  return {
    llm,
    app,
    deps,
    warnings,
    async close() {
      await app.close();
      await llm.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
