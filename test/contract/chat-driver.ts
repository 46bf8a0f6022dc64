/**
 * What the chat contract says on every platform (a {@link ChatDriver}), and what its worlds share:
 * the agent settings and the queue-mode workers. Each platform's driver implements it in a file of
 * its own (slack-driver.ts, discord-driver.ts); drivers.ts lists them.
 */
import type { FakeOpenAi } from '../fakes/openai-server.js';
import type { Proc } from '../queue/harness.js';
import { join } from 'node:path';
import { stopChild } from '../helpers/servers.js';

/** A file given with a request. */
export interface GivenFile {
  name: string;
  data: Buffer;
}

/** A request that may open a thread; `answer` is what only the requester was told (may be empty). */
export interface Started {
  answer(): Promise<string>;
  thread(): Promise<string>;
}

/** What every platform and mode does, in the contract's words. */
export interface ChatDriver {
  llm: FakeOpenAi;
  /** Starts a run as user 1 or 2 (`file`: with a file; `twice`: the platform delivers it twice). */
  run(requirement: string, o?: { user?: 1 | 2; file?: GivenFile; twice?: boolean }): Promise<Started>;
  /** Replies in a run's thread (`twice`: delivered twice). */
  reply(thread: string, text: string, o?: { user?: 1 | 2; file?: GivenFile; twice?: boolean }): Promise<void>;
  rerun(thread: string): Promise<void>;
  improve(thread: string, feedback: string): Promise<void>;
  /** Waits for the n-th final message of a thread and returns the final messages so far. */
  finals(thread: string, n: number): Promise<string[]>;
  /** All the text posted in a thread. */
  text(thread: string): string;
  history(): Promise<string>;
  /** `/show` of a thread's run (default: the channel's newest run), as the requester sees it. */
  show(thread?: string): Promise<string>;
  /** Removes a file from a thread's run's workspace (`/show … remove`); returns the answer. */
  removeFile(thread: string, name: string): Promise<string>;
  /** Deletes a thread's run (`/show <id> remove`; Discord's `delete_run` option); returns the answer. */
  deleteRun(thread: string): Promise<string>;
  /** Everything only a requester was told (ephemeral answers), so far. */
  told(): string;
  /** `/remember <text>` as user 1; returns the answer. */
  remember(text: string): Promise<string>;
  /** `/memory [args]` as user 2; returns the answer. */
  memory(args?: string): Promise<string>;
  /** Whether the thread shows the offer to remember a correction. */
  offered(thread: string): boolean;
  /** Presses the latest offer's Remember button in the thread, as user 2. */
  pressRemember(thread: string): Promise<void>;
  /** `/programs` as user 2; returns the answer. */
  programs(): Promise<string>;
  /**
   * `/program <args>` as user 1 (`file`: with a file: on Slack a mention `@app /program …`, on
   * Matrix the file then `!program …`); `answer` is what the requester was told, `thread` the new
   * thread of a run.
   */
  program(args: string, o?: { file?: GivenFile }): Promise<Started>;
  /**
   * Saves a thread's run as a team program the way the platform offers it: Slack and Discord press
   * the final message's "Save as team program" button (which asks for the name) and reply
   * `save program <name>`; Matrix sends `!program save <name>` in the thread.
   */
  saveProgram(thread: string, name: string): Promise<void>;
  /** The choice ids (src/chat/settle-view.ts: `approve:up`, `program:save`, `program:new`…) the thread's latest final message offers. */
  choices(thread: string): string[];
  /**
   * Picks `choice` on the thread's latest final message as user 1, the way the platform offers it
   * (a button on Slack and Discord, a reaction on Matrix: test/contract/choice-clicks.ts).
   * @throws when that message does not offer it
   */
  click(thread: string, choice: string): Promise<void>;
  /** `/schedules` as user 2; returns the answer. */
  schedules(): Promise<string>;
  /** Someone the channel's access lists leave out (the worlds allow users 1 and 2 only). */
  outsider: Outsider;
  /**
   * The platform's own signs of work in a thread so far (Slack: the thread status and streamed
   * messages; Discord: the typing indicator; Matrix: typing and the read receipt on the request):
   * `working` they showed while the run worked, `stopped` nothing shows them any more.
   */
  signs(thread: string): Promise<{ working: boolean; stopped: boolean }>;
  /** Queue mode: kills (SIGKILL) every worker and starts a new one. */
  killWorkers?(): Promise<void>;
  /**
   * Queue mode: stops every worker and starts one with a data dir of its own (as on another host;
   * the store and the queue are shared). @returns that data dir
   */
  moveWorkers?(): Promise<string>;
  /** Queue mode: starts one more worker (same data dir). */
  addWorker?(): Promise<void>;
  close(): Promise<void>;
}


/** What someone without access to the channel tries; each returns what they were told. */
export interface Outsider {
  /** What the platform answers them. */
  refusal: RegExp;
  /** Saves a thread's run the platform's way (the button then the reply; Matrix: `!program save`); every answer, joined. */
  save(thread: string, name: string): Promise<string>;
  /** `/program <args>`. */
  program(args: string): Promise<string>;
  /** `/schedule <program> <when>`. */
  schedule(program: string, when: string): Promise<string>;
}

/** The agent settings of every world. */
export const AGENT = { max_retries: 2 };

/** What a queue-mode world does with its workers. */
export type Workers = Pick<ChatDriver, 'killWorkers' | 'moveWorkers' | 'addWorker'>;

/** The workers of a queue-mode world (Slack's or Discord's: both have `workers`, `addWorker` and a temp `dir`). */
export function queueWorkers(w: { dir: string; workers: Proc[]; addWorker(o?: { dataDir?: string }): Promise<Proc> }): Workers {
  let hosts = 0;
  return {
    async killWorkers() {
      for (const p of w.workers.splice(0)) await stopChild(p.child, 'SIGKILL', 5000);
      await w.addWorker();
    },
    async addWorker() {
      await w.addWorker();
    },
    async moveWorkers() {
      for (const p of w.workers.splice(0)) await stopChild(p.child, 'SIGTERM', 10_000);
      const dataDir = join(w.dir, `host-${++hosts}`);
      await w.addWorker({ dataDir });
      return dataDir;
    },
  };
}


