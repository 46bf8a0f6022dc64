/**
 * One chat contract, every platform in both modes (test/contract/chat-contract.ts, run by a chat-contract-<platform>-<mode>.test.ts each): each
 * platform's fakes speak its real protocol (or it runs against a real server), embedded (the app
 * runs its jobs on its in-memory queue) and in queue mode (a real redis-server, `code-agent`
 * ingress and worker processes built from dist/). A {@link ChatDriver} says the same things on
 * each: start a run (a command, or a message with a file), reply in its thread, press Re-run or
 * Improve, ask for the history or a run; and reads back what the thread shows.
 *
 * A new platform plugs in with one entry in {@link PLATFORMS}: its driver (a file of its own,
 * like slack-driver.ts, implementing chat-driver.ts's ChatDriver) started embedded and in queue mode,
 * and its two test files (chat-contract-<platform>-embedded.test.ts and -queue.test.ts).
 */
import { slackEmbedded, slackQueue } from './slack-driver.js';
import { discordEmbedded, discordQueue } from './discord-driver.js';
import { matrixEmbedded, matrixQueue } from './matrix-driver.js';
import type { ChatDriver } from './chat-driver.js';

export type { ChatDriver, GivenFile, Started } from './chat-driver.js';

/** How a platform is started in each mode. */
export interface PlatformWorlds {
  embedded(): Promise<ChatDriver>;
  queue(): Promise<ChatDriver>;
}

/** Every platform of the contract: one entry each. */
export const PLATFORMS: Record<string, PlatformWorlds> = {
  Slack: { embedded: slackEmbedded, queue: slackQueue },
  Discord: { embedded: discordEmbedded, queue: discordQueue },
  Matrix: { embedded: matrixEmbedded, queue: matrixQueue },
};

/** The worlds, by name (`<platform>, embedded`, `<platform>, queue mode`). */
export const WORLDS: Record<string, () => Promise<ChatDriver>> = Object.fromEntries(
  Object.entries(PLATFORMS).flatMap(([name, worlds]) => [
    [`${name}, embedded`, () => worlds.embedded()],
    [`${name}, queue mode`, () => worlds.queue()],
  ]),
);
