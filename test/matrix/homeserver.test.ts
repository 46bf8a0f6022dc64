/**
 * matrix-bot-sdk against a real Synapse (test/helpers/synapse.ts): what the Matrix adapter will
 * rely on. A user says `!run print(1)` in a room; the bot receives it, replies in a thread
 * (`m.thread`), puts a file in the media repository and posts it in the thread; the user finds
 * both through the thread's relations, downloads the file and reacts; the bot receives the reaction.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogLevel, LogService, MatrixClient, MemoryStorageProvider, RustSdkCryptoStorageProvider } from 'matrix-bot-sdk';
import { startSynapse, type MatrixUser, type TestHomeserver } from '../helpers/synapse.js';

// matrix-bot-sdk logs every request, and as errors the 404s it expects (no DM list yet, no
// encryption state) and the sync cut short by stop(); a failed request still rejects in the test
LogService.setLevel(LogLevel.ERROR);
LogService.muteModule('MatrixHttpClient');

/** A Matrix event as the client-server API returns it (the fields these tests read). */
interface RoomEvent {
  event_id: string;
  sender: string;
  type: string;
  content: Record<string, any>;
}

/** Resolves with the first `name` event's RoomEvent that `match` accepts, or rejects after `ms`. */
function nextEvent(client: MatrixClient, name: 'room.message' | 'room.event', match: (roomId: string, e: RoomEvent) => boolean, ms = 10_000): Promise<RoomEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off(name, listener);
      reject(new Error(`no matching ${name} within ${ms} ms`));
    }, ms);
    const listener = (roomId: string, e: RoomEvent) => {
      if (!match(roomId, e)) return;
      clearTimeout(timer);
      client.off(name, listener);
      resolve(e);
    };
    client.on(name, listener);
  });
}

describe('matrix-bot-sdk against Synapse', () => {
  let hs: TestHomeserver;
  let botUser: MatrixUser;
  let aliceUser: MatrixUser;
  let bot: MatrixClient;
  let alice: MatrixClient;

  beforeAll(async () => {
    hs = await startSynapse();
    [botUser, aliceUser] = await Promise.all([hs.registerUser('codebot'), hs.registerUser('alice')]);
    bot = new MatrixClient(hs.url, botUser.accessToken, new MemoryStorageProvider());
    alice = new MatrixClient(hs.url, aliceUser.accessToken, new MemoryStorageProvider());
  });

  afterAll(async () => {
    bot?.stop();
    await hs?.stop();
  });

  it('registers users through the admin API, as admins only when asked', async () => {
    expect(botUser.userId).toBe(`@codebot:${hs.serverName}`);
    expect(await bot.getUserId()).toBe(botUser.userId);
    const admin = await hs.registerUser('operator', true);
    const asAdmin = await fetch(`${hs.url}/_synapse/admin/v2/users/${encodeURIComponent(aliceUser.userId)}`, {
      headers: { authorization: `Bearer ${admin.accessToken}` },
    });
    expect(asAdmin.status).toBe(200);
    expect(((await asAdmin.json()) as { admin: boolean }).admin).toBe(false);
    const asUser = await fetch(`${hs.url}/_synapse/admin/v2/users/${encodeURIComponent(admin.userId)}`, {
      headers: { authorization: `Bearer ${aliceUser.accessToken}` },
    });
    expect(asUser.status).toBe(403);
    await expect(hs.registerUser('alice')).rejects.toThrow(/M_USER_IN_USE/);
  });

  it('a !run message in, a thread reply and a file out, a reaction back in', async () => {
    const roomId = await alice.createRoom({ name: 'code', invite: [botUser.userId] });
    await bot.joinRoom(roomId);
    await bot.start();

    const received = nextEvent(bot, 'room.message', (r, e) => r === roomId && e.sender === aliceUser.userId);
    const runId = await alice.sendText(roomId, '!run print(1)');
    const run = await received;
    expect(run.event_id).toBe(runId);
    expect(run.content.body).toBe('!run print(1)');

    // the bot answers in a thread rooted at the request, with a text and a file
    const inThread = { rel_type: 'm.thread', event_id: runId, is_falling_back: true, 'm.in_reply_to': { event_id: runId } };
    const replyId = await bot.sendMessage(roomId, { msgtype: 'm.text', body: '1', 'm.relates_to': inThread });
    const bytes = Buffer.from('n,square\n1,1\n2,4\n');
    const mxc = await bot.uploadContent(bytes, 'text/csv', 'squares.csv');
    expect(mxc).toMatch(new RegExp(`^mxc://${hs.serverName}/\\w+$`));
    const fileId = await bot.sendMessage(roomId, {
      msgtype: 'm.file', body: 'squares.csv', url: mxc, info: { mimetype: 'text/csv', size: bytes.length }, 'm.relates_to': inThread,
    });

    // the server files both under the thread
    const thread = await alice.doRequest('GET', `/_matrix/client/v1/rooms/${encodeURIComponent(roomId)}/relations/${encodeURIComponent(runId)}/m.thread`);
    const inIt = (thread.chunk as RoomEvent[]).map((e) => e.event_id);
    expect(inIt.sort()).toEqual([replyId, fileId].sort());
    const root = await alice.getEvent(roomId, runId);
    expect(root.unsigned['m.relations']['m.thread'].count).toBe(2);

    // the other user downloads the file through the authenticated media API
    const file = (thread.chunk as RoomEvent[]).find((e) => e.event_id === fileId)!;
    const [, server, mediaId] = /^mxc:\/\/([^/]+)\/(.+)$/.exec(file.content.url)!;
    const download = await fetch(`${hs.url}/_matrix/client/v1/media/download/${server}/${mediaId}`, {
      headers: { authorization: `Bearer ${aliceUser.accessToken}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
    // matrix-bot-sdk's own downloadContent uses the legacy unauthenticated path, which Synapse
    // refuses for new media: the adapter must download as above
    await expect(alice.downloadContent(mxc)).rejects.toMatchObject({ statusCode: 404 });

    // a reaction on the bot's reply reaches the bot
    const reacted = nextEvent(bot, 'room.event', (r, e) => r === roomId && e.type === 'm.reaction');
    const reactionId = await alice.sendEvent(roomId, 'm.reaction', { 'm.relates_to': { rel_type: 'm.annotation', event_id: replyId, key: '🔁' } });
    const reaction = await reacted;
    expect(reaction).toMatchObject({
      event_id: reactionId,
      sender: aliceUser.userId,
      content: { 'm.relates_to': { rel_type: 'm.annotation', event_id: replyId, key: '🔁' } },
    });
  });

  it('end-to-end encryption is unavailable: a bot given a crypto store does not start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'matrix-crypto-'));
    try {
      const encrypted = new MatrixClient(hs.url, botUser.accessToken, new MemoryStorageProvider(), new RustSdkCryptoStorageProvider(dir));
      await expect(encrypted.start()).rejects.toMatchObject({ code: 'E2EE_UNAVAILABLE', message: /end-to-end encryption is not available/ });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
