/**
 * A minimal platform for tests of the one run lifecycle (src/chat/run-job.ts): a thread that records
 * what it is shown, in plain words, so a test can read the thread.
 */
import type { ChatThread, ThreadMarkup } from '../../src/chat/port.js';

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
