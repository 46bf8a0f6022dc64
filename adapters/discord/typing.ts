/**
 * Discord's sign of work (src/chat/port.ts: ThreadSigns): the typing indicator in the run's
 * channel or thread while a turn works (`POST /channels/{id}/typing`,
 * https://discord.com/developers/docs/resources/channel#trigger-typing-indicator). Discord shows it
 * for 10 seconds, or until the bot posts; it is renewed every {@link TYPING_RENEW_MS} and no
 * longer renewed at the turn's end. It goes along with the progress message (never replaces it).
 */
import { Routes, type Client } from 'discord.js';
import type { ThreadSigns } from '../../src/chat/port.js';
import { typingSign } from '../../src/chat/typing-sign.js';
import type { Outgoing } from './renderer.js';
import type { ChatLog } from '../../src/app/chat-service.js';

/** How often the typing indicator is renewed, in ms (before Discord's 10 s lapse). */
export const TYPING_RENEW_MS = 8000;

/** The typing indicator of one channel or thread, for one turn (src/chat/typing-sign.ts). Never throws. */
export function discordTyping(client: Client, channelId: string, logger: ChatLog): ThreadSigns<Outgoing> {
  const show = () =>
    client.rest.post(Routes.channelTyping(channelId)).then(
      () => undefined,
      (err: unknown) => logger.warn(`the typing indicator in ${channelId} failed: ${(err as Error).message}`),
    );
  return typingSign({ show, renewMs: TYPING_RENEW_MS });
}
