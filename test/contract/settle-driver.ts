/**
 * What the settle scenarios (settle-chat.test.ts) do on a platform: start a run on a file, read its
 * last messages and the choices they offer, and pick one as a person would (a button, or on Matrix a
 * reaction). Slack's and Discord's drivers are in the test file; Matrix's in matrix-driver.ts.
 */
import type { FakeOpenAi } from '../fakes/openai-server.js';

/** The file every settle run is given: 24 items in all, 23 of them paid. */
export const SALES = 'country,items,status\nDE,10,paid\nDE,4,paid\nFR,9,paid\nIT,1,refunded\n';

/** What the scenario does on a platform. */
export interface SettleDriver {
  llm: FakeOpenAi;
  /** What the platform answers a person the access lists leave out. */
  refusal: RegExp;
  /** The platform has no private answers: a refusal is posted in the thread (Matrix). */
  publicAnswers?: true;
  /** Starts a run with sales.csv; resolves with its thread once its last message is there. */
  run(requirement: string): Promise<string>;
  /** The n-th last message of a thread (1-based), once there, with the choice ids it offers. */
  final(thread: string, n: number): Promise<{ text: string; choices: string[] }>;
  /** Clicks the choice `choice` (e.g. `settle:1`, `approve:up`) on the thread's latest last message; `outsider`: as someone without access. */
  click(thread: string, choice: string, user?: 'outsider'): Promise<void>;
  /** Where the app puts reactions under a last message itself: those under the thread's n-th last message. */
  appReactions?(thread: string, n: number): string[];
  text(thread: string): string;
  /** What only a requester was told. */
  told(): string;
  close(): Promise<void>;
}
