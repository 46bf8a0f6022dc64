/**
 * A file the homeserver refuses (a real Synapse whose `max_upload_size` is 1 KiB): Matrix's
 * transport posts the message, then in the file's place the notice every platform says
 * (src/chat/view/upload-notice.ts), in the same thread, as a notice that mentions no one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MatrixClient, MemoryStorageProvider } from 'matrix-bot-sdk';
import { MatrixTransport } from '../../adapters/matrix/transport.js';
import { startSynapse, type MatrixUser, type TestHomeserver } from '../helpers/synapse.js';

let hs: TestHomeserver;
let botUser: MatrixUser;
let bot: MatrixClient;

beforeAll(async () => {
  hs = await startSynapse({ maxUploadSize: '1K' });
  botUser = await hs.registerUser('uploader');
  bot = new MatrixClient(hs.url, botUser.accessToken, new MemoryStorageProvider());
});

afterAll(async () => {
  await hs?.stop();
});

describe('a file the homeserver refuses', () => {
  it('is named in the thread, after the message, with the homeserver\'s reason; a file that fits is posted', async () => {
    const roomId = await bot.createRoom({ name: 'uploads' });
    const root = await bot.sendText(roomId, 'the request');
    const warnings: string[] = [];
    const transport = new MatrixTransport(bot, hs.url, botUser.accessToken, (w) => warnings.push(w));
    await transport.post(
      { roomId, threadRoot: root },
      { body: 'Result', html: 'Result', files: [{ name: 'big.csv', data: Buffer.alloc(4096, 'x') }, { name: 'small.csv', data: Buffer.from('a,b\n1,2\n') }] },
    );
    const events = (await bot.doRequest('GET', `/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/messages`, { dir: 'b', limit: 20 })) as {
      chunk: Array<{ type: string; content: Record<string, any> }>;
    };
    const inThread = events.chunk
      .reverse()
      .filter((e) => e.type === 'm.room.message' && e.content['m.relates_to']?.event_id === root && e.content['m.relates_to']?.rel_type === 'm.thread');
    expect(inThread.map((e) => e.content.msgtype)).toEqual(['m.notice', 'm.notice', 'm.file']);
    const [message, notice, file] = inThread.map((e) => e.content);
    expect(message!.body).toBe('Result');
    expect(notice!.body).toMatch(/^📎 Could not upload `big\.csv`: .*(M_TOO_LARGE|too large)/i);
    expect(notice!.formatted_body).toContain('<code>big.csv</code>');
    expect(notice!['m.mentions']).toEqual({});
    expect(file!.body).toBe('small.csv');
    expect(file!.url).toMatch(/^mxc:\/\//);
  });
});
