/**
 * Matrix's client-server API as this adapter uses it, through matrix-bot-sdk's {@link MatrixClient}:
 * messages in a thread (`m.thread` with the reply fallback), edits (`m.replace`), files through the
 * media repository, reactions (`m.annotation`, https://spec.matrix.org/v1.11/client-server-api/#event-annotations-and-reactions), and downloads through authenticated media
 * (`/_matrix/client/v1/media/download`, https://spec.matrix.org/v1.11/client-server-api/#get_matrixclientv1mediadownloadservernamemediaid;
 * Synapse refuses new media on the legacy unauthenticated path). Every message says `m.mentions: {}`:
 * it mentions nobody, so no text in it pings anyone (https://spec.matrix.org/v1.11/client-server-api/#user-and-room-mentions).
 */
import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { MatrixClient } from 'matrix-bot-sdk';
import type { IncomingRequest } from '../../src/chat/incoming-port.js';
import { fetchFromOrigins } from '../../src/chat/safe-fetch.js';
import type { ThreadSigns } from '../../src/chat/port.js';
import { typingSign } from '../../src/chat/typing-sign.js';
import type { ViewFile } from '../../src/chat/view/blocks.js';
import type { MatrixMessage } from './markup.js';
import { matrixRenderer } from './renderer.js';
import { uploadNoticeView } from '../../src/chat/view/upload-notice.js';
import { errorLine } from '../../src/text/error-line.js';

/** Where messages go: a room, and the root event of the thread inside it (none: the room itself). */
export interface MatrixPlace {
  roomId: string;
  threadRoot?: string;
  /** The event answered (a reply to it), outside a thread. */
  replyTo?: string;
}

/** Matrix's part of a request (`IncomingRequest.origin.event`): the id of the event that made it. */
export const eventOf = (request: Pick<IncomingRequest, 'origin'>): string => String(request.origin.event);

/** Where a request is answered: in the thread it was made in, else as a reply to the event that made it. */
export function placeOf(request: Pick<IncomingRequest, 'origin'> & { where: { channel: string; thread?: string | undefined } }): MatrixPlace {
  const { channel: roomId, thread } = request.where;
  return thread ? { roomId, threadRoot: thread } : { roomId, replyTo: eventOf(request) };
}

/** An `mxc://server/media` URI's parts (the spec's server name and media id characters only). */
const MXC = /^mxc:\/\/([A-Za-z0-9.:[\]-]+)\/([A-Za-z0-9_-]+)$/;
const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };
const TEXT_TYPES: Record<string, string> = { txt: 'text/plain', csv: 'text/csv', py: 'text/x-python', json: 'application/json', md: 'text/markdown' };
/** Retries of a request the homeserver rate-limited (`M_LIMIT_EXCEEDED`), and the longest wait it may ask, in ms. */
const RATE_LIMIT_RETRIES = 3;
const RATE_LIMIT_WAIT_MAX_MS = 10_000;

/** How long one typing notice lasts (the homeserver drops it after that), and how often it is renewed while a turn works, in ms. */
const TYPING = { timeoutMs: 30_000, renewMs: 20_000 };

/** Sends through `client`, waiting out rate limits; never throws (failures go to `warn`). */
export class MatrixTransport {
  constructor(
    readonly client: MatrixClient,
    private readonly homeserverUrl: string,
    private readonly accessToken: string,
    private readonly warn: (what: string) => void,
  ) {}

  /** Sends one event. @returns its id, or undefined when it could not be sent (told to `warn`). */
  async send(roomId: string, type: string, content: Record<string, unknown>): Promise<string | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.client.sendEvent(roomId, type, content);
      } catch (err) {
        const wait = (err as { errcode?: string; retryAfterMs?: number }).errcode === 'M_LIMIT_EXCEEDED' ? (err as { retryAfterMs?: number }).retryAfterMs ?? 1000 : undefined;
        if (wait === undefined || attempt >= RATE_LIMIT_RETRIES) return void this.warn(`sending ${type} in ${roomId} failed: ${errorLine(err)}`);
        await delay(Math.min(wait, RATE_LIMIT_WAIT_MAX_MS));
      }
    }
  }

  /**
   * The signs of work of one turn in a room (src/chat/typing-sign.ts): `taken`, the event it took,
   * marked read when it starts (`m.read`, https://spec.matrix.org/v1.11/client-server-api/#receipts),
   * and the bot typing while it works (`m.typing` lasting {@link TYPING}'s timeout, renewed,
   * https://spec.matrix.org/v1.11/client-server-api/#typing-notifications), stopped at its end;
   * along with the progress message. Never throws (failures go to `warn`).
   */
  signs(roomId: string, taken: string | undefined): ThreadSigns<MatrixMessage> {
    const failed = (what: string) => (err: unknown) => this.warn(`${what} in ${roomId} failed: ${errorLine(err)}`);
    const typing = (on: boolean) => this.client.setTyping(roomId, on, TYPING.timeoutMs).catch(failed('typing'));
    const read = taken ? { started: () => this.client.sendReadReceipt(roomId, taken).catch(failed('the read receipt')) } : {};
    return typingSign({ show: () => typing(true), hide: () => typing(false), ...read, renewMs: TYPING.renewMs });
  }

  /** Posts a message (then its files, then the bot's reactions under it). @returns the message's event id */
  async post(place: MatrixPlace, msg: MatrixMessage): Promise<string | undefined> {
    const id = await this.send(place.roomId, 'm.room.message', { ...text(msg), ...relation(place), ...msg.content });
    for (const file of msg.files ?? []) await this.upload(place, file);
    for (const key of id ? msg.reactions ?? [] : []) await this.send(place.roomId, 'm.reaction', { 'm.relates_to': { rel_type: 'm.annotation', event_id: id, key } });
    return id;
  }

  /** Replaces a posted message's text (`m.replace`); its files are posted after it. */
  async edit(place: MatrixPlace, eventId: string, msg: MatrixMessage): Promise<void> {
    const now = text(msg);
    const fallback = { ...now, body: `* ${now.body}`, formatted_body: `* ${now.formatted_body}` };
    await this.send(place.roomId, 'm.room.message', { ...fallback, 'm.new_content': now, 'm.relates_to': { rel_type: 'm.replace', event_id: eventId } });
    for (const file of msg.files ?? []) await this.upload(place, file);
  }

  /** Uploads a file to the media repository and posts it (`m.image` or `m.file`); a refusal is said in its place. */
  private async upload(place: MatrixPlace, file: ViewFile): Promise<void> {
    const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
    const mimetype = IMAGE_TYPES[ext] ?? TEXT_TYPES[ext] ?? 'application/octet-stream';
    try {
      const data = typeof file.data === 'string' ? await readFile(file.data) : file.data;
      const url = await this.client.uploadContent(data, mimetype, file.name);
      const msgtype = IMAGE_TYPES[ext] ? 'm.image' : 'm.file';
      await this.send(place.roomId, 'm.room.message', { msgtype, body: file.name, filename: file.name, url, info: { mimetype, size: data.length }, 'm.mentions': {}, ...relation(place) });
    } catch (err) {
      const notice = matrixRenderer.render(uploadNoticeView([{ name: file.name }], errorLine(err)))[0]!;
      await this.send(place.roomId, 'm.room.message', { ...text(notice), ...relation(place) });
    }
  }

  /**
   * Downloads an `mxc://` file through authenticated media, from the homeserver only (redirects
   * included), at most `maxBytes`.
   * @throws {DownloadError} for a bad URI, an HTTP error or a file over `maxBytes`
   */
  async download(mxc: string, maxBytes: number, tooLarge: string): Promise<Buffer> {
    const parts = MXC.exec(mxc);
    const base = this.homeserverUrl.replace(/\/+$/, '');
    const url = parts ? `${base}/_matrix/client/v1/media/download/${encodeURIComponent(parts[1]!)}/${parts[2]}` : mxc;
    const headers = { authorization: `Bearer ${this.accessToken}` };
    return fetchFromOrigins(url, { origins: new Set([new URL(base).origin]), headers, maxBytes, timeoutMs: 60_000, tooLarge });
  }
}

/** A message's text content: a notice (bots' messages, https://spec.matrix.org/v1.11/client-server-api/#mnotice), plain and HTML. */
function text(msg: MatrixMessage) {
  return { msgtype: 'm.notice', body: msg.body, format: 'org.matrix.custom.html', formatted_body: msg.html, 'm.mentions': {} };
}

/** The relation of a message posted at `place`: in its thread (with the reply fallback for clients without threads), or a reply. */
function relation(place: MatrixPlace): Record<string, unknown> {
  if (place.threadRoot) return { 'm.relates_to': { rel_type: 'm.thread', event_id: place.threadRoot, is_falling_back: true, 'm.in_reply_to': { event_id: place.threadRoot } } };
  return place.replyTo ? { 'm.relates_to': { 'm.in_reply_to': { event_id: place.replyTo } } } : {};
}
