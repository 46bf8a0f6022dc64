/**
 * Matrix's incoming port (src/chat/incoming-port.ts: the commands of src/chat/command-catalog.ts
 * spelled `!run`, `!generate`, `!history`…; access by room id and user id), and its traffic → the pipeline's single
 * entry: each room event from the sync becomes one {@link IncomingRequest} (or nothing). `!run …` / `!generate …` / `!history` / `!show …`; a message
 * mentioning the bot starts a run; a message in a run's thread is a `reply`; on a run's final message,
 * a 🔁 reaction is a `rerun` and a reaction that message offers as a choice (1️⃣, ❌, 👍, …:
 * src/chat/choice-keys.ts) is a `settle` (an `m.reaction` whose `m.relates_to` is an `m.annotation`
 * with the emoji as `key`: https://spec.matrix.org/v1.11/client-server-api/#event-annotations-and-reactions). Files sent without a caption wait (10 minutes) for their
 * sender's next request in the same room or thread; a captioned file is a request with its file.
 * End-to-end encrypted rooms are refused with a message: without the crypto module this bot can
 * neither read nor send encrypted events. Invites to rooms outside `allowed_rooms` are declined.
 */
import type { ChatIngress, CommandNames, IncomingFile, IncomingPort, IncomingRequest, Where } from '../../src/chat/incoming-port.js';
import { accessRefusal } from '../../src/chat/access.js';
import { RecentDeliveries } from '../../src/chat/recent-deliveries.js';
import { ExpiringMap } from '../../src/chat/expiring-map.js';
import { straightenQuotesInCode } from '../../src/chat/smart-quotes.js';
import { commandNames, typedCommand } from '../../src/chat/command-catalog.js';
import { choiceOfKey, isAppKey, isRerunKey } from '../../src/chat/choice-keys.js';
import { CHOICES_KEY, RUN_KEY, type MatrixMessage } from './markup.js';
import { matrixAnswers } from './renderer.js';
import { placeOf, type MatrixTransport } from './transport.js';
import type { MatrixSettings } from './settings.js';

/** How Matrix spells the commands (a room has no slash commands for bots: `!` is the custom). */
export const MATRIX_COMMANDS: CommandNames = commandNames('!');

/** The refusal of a request from outside the access lists (src/chat/access.ts), or undefined when it may go on. */
export function refusalFor(settings: Pick<MatrixSettings, 'allowedRooms' | 'allowedUsers'>, roomId: string, userId: string): string | undefined {
  return accessRefusal({
    places: [{ key: 'matrix.allowed_rooms', allowed: settings.allowedRooms, ids: [roomId], place: 'room' }],
    people: { key: 'matrix.allowed_users', allowed: settings.allowedUsers, ids: [userId] },
  });
}

/** Matrix's {@link IncomingPort}. */
export function matrixIncoming(settings: MatrixSettings): IncomingPort<MatrixMessage> {
  return {
    platform: 'matrix',
    names: MATRIX_COMMANDS,
    access: (request: IncomingRequest) => refusalFor(settings, request.where.channel, request.who.userId),
    markup: matrixAnswers,
    // a thread's root event id names its run (`!show $event`)
    threadNamed: (arg) => (arg.startsWith('$') ? arg : undefined),
    historyLimit: settings.historyLimit,
  };
}

/** A room event as the sync gives it (the fields read here). */
interface RoomEvent {
  event_id: string;
  sender: string;
  type: string;
  state_key?: string;
  origin_server_ts: number;
  content: Record<string, any>;
}

/** What the listener needs (it listens on `transport.client`). */
export interface ListenDeps {
  transport: MatrixTransport;
  ingress: ChatIngress<MatrixMessage>;
  botUserId: string;
  /** What people write before a request to the bot (its localpart, its display name), stripped with a `:` after it. */
  botNames: string[];
  settings: Pick<MatrixSettings, 'allowedRooms' | 'allowedUsers'>;
  /** Events sent before this (ms since the epoch) are not handled: the first sync's backlog. Undefined: all. */
  since: number | undefined;
  warn(message: string): void;
  /** Given each event's handling (the syncing client saves a batch's token after its handlers end: sync-client.ts). */
  track?(handling: Promise<unknown>): void;
}

/** What an end-to-end encrypted room is told (once per room every ten minutes). */
export const ENCRYPTED_REFUSAL =
  '🔒 This room is end-to-end encrypted: this bot cannot read or send encrypted messages, so it does not work here. Use it in a room without encryption (docs/matrix.md).';
const FILE_TYPES = new Set(['m.file', 'm.image', 'm.audio', 'm.video']);
/** How long a file without a caption waits for its sender's request, and how often an encrypted room is told, in ms. */
const PENDING_MS = 10 * 60_000;

/** Handles the client's room events (see the module comment). Nothing thrown reaches the client. */
export function listen(deps: ListenDeps): void {
  const { transport, botUserId } = deps;
  const client = transport.client;
  const encrypted = new Map<string, boolean>();
  const toldEncrypted = new RecentDeliveries(PENDING_MS);
  const pending = new ExpiringMap<string, IncomingFile[]>(PENDING_MS);
  /** Thread roots of runs this process admitted, with when (their link to the run may be on its way). */
  const started = new ExpiringMap<string, number>(PENDING_MS);

  const isEncrypted = async (roomId: string) =>
    encrypted.get(roomId) ?? client.getRoomStateEvent(roomId, 'm.room.encryption', '').then(() => true, () => false).then((on) => (encrypted.set(roomId, on), on));
  const refuseEncrypted = async (roomId: string, eventId?: string) => {
    if (toldEncrypted.first(roomId)) await transport.post({ roomId, ...(eventId ? { replyTo: eventId } : {}) }, matrixAnswers.text(ENCRYPTED_REFUSAL));
  };

  async function onEvent(roomId: string, ev: RoomEvent): Promise<void> {
    if (ev.sender === botUserId || (deps.since !== undefined && ev.origin_server_ts < deps.since)) return;
    if (ev.type === 'm.room.encryption' && ev.state_key === '') {
      encrypted.set(roomId, true);
      return refuseEncrypted(roomId);
    }
    if (ev.type === 'm.room.encrypted') return refuseEncrypted(roomId, ev.event_id);
    if (ev.type !== 'm.room.message' && ev.type !== 'm.reaction') return;
    const rel = ev.content?.['m.relates_to'];
    if (ev.type === 'm.reaction') return rel?.rel_type === 'm.annotation' && isAppKey(String(rel.key)) ? reaction(roomId, ev, rel.event_id, String(rel.key)) : undefined;
    const c = ev.content;
    if (c.msgtype === 'm.notice' || rel?.rel_type === 'm.replace') return; // bots' messages and edits
    const thread: string | undefined = rel?.rel_type === 'm.thread' ? rel.event_id : undefined;
    const key = `${roomId}|${thread ?? ''}|${ev.sender}`;
    const text = String(c.body ?? '');
    if (FILE_TYPES.has(c.msgtype)) {
      if (typeof c.url !== 'string') return; // an encrypted file
      const file: IncomingFile = { name: String(c.filename ?? c.body ?? 'file'), url: c.url, ...(typeof c.info?.size === 'number' ? { bytes: c.info.size } : {}) };
      pending.set(key, [...(pending.take(key) ?? []), file]);
      if (!c.filename || c.filename === c.body) return; // no caption: it waits for a request
    }
    const mentioned = (c['m.mentions']?.user_ids ?? []).includes(botUserId) || text.includes(botUserId);
    const command = typedCommand(text, MATRIX_COMMANDS);
    const kind = command ? command.name : thread ? 'reply' : mentioned ? 'run' : undefined;
    if (!kind) return;
    const named = deps.botNames.find((n) => text.toLowerCase().startsWith(`${n.toLowerCase()}:`));
    const asked = command ? command.line : mentioned && !thread ? text.slice(named ? named.length + 1 : 0).replaceAll(botUserId, '') : text;
    const files = pending.take(key) ?? [];
    if (await isEncrypted(roomId)) return refuseEncrypted(roomId, ev.event_id);
    if (kind === 'run' || kind === 'generate' || kind === 'program') started.set(ev.event_id, Date.now());
    const since = thread ? started.get(thread) : undefined;
    await receive(roomId, ev, { kind, text: straightenQuotesInCode(asked.trim()), files, thread, threadStart: { byApp: since !== undefined, at: since } });
  }

  /** A reaction on the bot's final message: 🔁 re-runs, a choice it offers settles (the same `settle` request as a button). */
  async function reaction(roomId: string, ev: RoomEvent, target: string, key: string): Promise<void> {
    const final = (await client.getEvent(roomId, target).catch(() => undefined)) as RoomEvent | undefined;
    const runId = final?.sender === botUserId ? final.content?.[RUN_KEY] : undefined;
    const choice = isRerunKey(key) ? '' : choiceOfKey(final?.content?.[CHOICES_KEY], key);
    if (typeof runId !== 'string' || choice === undefined) return;
    const rel = final!.content['m.relates_to'];
    await receive(roomId, ev, { kind: choice ? 'settle' : 'rerun', text: choice, files: [], runId, thread: rel?.rel_type === 'm.thread' ? String(rel.event_id) : undefined });
  }

  /** Hands a request to the pipeline: made in `roomId` (its conversation) by `ev`, in `thread` (with how that thread started) when given. */
  async function receive(roomId: string, ev: RoomEvent, { thread, threadStart, ...part }: Pick<IncomingRequest, 'kind' | 'text' | 'files'> & { runId?: string; thread: string | undefined; threadStart?: Where['threadStart'] }): Promise<void> {
    const where: Where = { conversation: `matrix:${roomId}`, channel: roomId, ...(thread ? { thread, ...(threadStart ? { threadStart } : {}) } : {}) };
    const request: IncomingRequest = { platform: 'matrix', deliveryId: `matrix:event:${ev.event_id}`, who: { userId: ev.sender }, receivedAt: Date.now(), origin: { event: ev.event_id }, where, ...part };
    await deps.ingress.receive(request, { answer: async (msg) => void (await transport.post(placeOf(request), msg)) });
  }

  client.on('room.event', (roomId: string, ev: RoomEvent) => {
    const handling = onEvent(roomId, ev).catch((err: unknown) => deps.warn(`event ${ev?.event_id} in ${roomId} failed: ${(err as Error)?.stack ?? String(err)}`));
    deps.track?.(handling);
  });
  client.on('room.invite', (roomId: string) => {
    const allowed = refusalFor({ allowedRooms: deps.settings.allowedRooms, allowedUsers: [] }, roomId, '') === undefined;
    const joined = async () => (await client.joinRoom(roomId), (await isEncrypted(roomId)) ? refuseEncrypted(roomId) : undefined);
    void (allowed ? joined() : client.leaveRoom(roomId)).catch((err: unknown) => deps.warn(`answering the invite to ${roomId} failed: ${(err as Error)?.message}`));
  });
}
