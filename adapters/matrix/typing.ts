/**
 * Matrix's signs of work (src/chat/port.ts: ThreadSigns): the message a turn took is marked read
 * when the turn starts (`m.read` receipt), and the bot shows as typing in the room while it works
 * (`m.typing`, each notice lasting {@link TYPING_TIMEOUT_MS}, renewed every
 * {@link TYPING_RENEW_MS}), stopped at the end. They go along with the progress message.
 */
import type { ThreadSigns } from '../../src/chat/port.js';
import { typingSign } from '../../src/chat/typing-sign.js';
import type { MatrixMessage } from './markup.js';
import type { MatrixTransport } from './transport.js';

/** How long one typing notice lasts, in ms (the homeserver drops it after that). */
export const TYPING_TIMEOUT_MS = 30_000;
/** How often it is renewed while the turn works, in ms. */
export const TYPING_RENEW_MS = 20_000;

/** The signs of one turn in `roomId` (`taken`: the event it answers; src/chat/typing-sign.ts). Never throws. */
export function matrixTyping(transport: MatrixTransport, roomId: string, taken: string | undefined): ThreadSigns<MatrixMessage> {
  return typingSign({
    show: () => transport.typing(roomId, true, TYPING_TIMEOUT_MS),
    hide: () => transport.typing(roomId, false),
    ...(taken ? { started: () => transport.receipt(roomId, taken) } : {}),
    renewMs: TYPING_RENEW_MS,
  });
}
