/**
 * A run's messages outside its thread on Discord: the thread's name, the run's header (its first
 * message, composed once in src/chat/view/root-view.ts) and the answer to a Re-run or an Improve.
 * Nothing here talks to Discord.
 */
import { againView, rootView, threadTitle, type AgainSpec, type RootSpec } from '../../src/chat/view/root-view.js';
import { discordRenderer, type Outgoing } from './renderer.js';

/**
 * Characters in a thread name.
 * Source: https://discord.com/developers/docs/resources/channel#start-thread-from-message
 */
export const THREAD_NAME_CHARS = 100;

export { MESSAGE_CHARS, type OutFile, type Outgoing } from './renderer.js';

/** The thread's name: the requirement, at most {@link THREAD_NAME_CHARS} characters (src/chat/view/root-view.ts). */
export function threadName(requirement: string): string {
  return threadTitle(requirement, THREAD_NAME_CHARS);
}

/** A run's first message (its header in the channel, or a schedule's tick's), composed once (src/chat/view/root-view.ts). */
export function rootMessage(spec: RootSpec): Outgoing {
  return discordRenderer.render(rootView(spec))[0]!;
}

/** The answer to a Re-run or an Improve (src/chat/view/root-view.ts). */
export function againMessage(spec: AgainSpec): Outgoing {
  return discordRenderer.render(againView(spec))[0]!;
}
