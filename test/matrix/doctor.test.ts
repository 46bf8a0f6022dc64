/** `code-agent doctor`'s Matrix line against a real Synapse: it answers, the token is whose, or why not. */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matrixReport } from '../../adapters/cli/doctor-matrix.js';
import { runDoctor } from '../../adapters/cli/doctor.js';
import { parseConfig } from '../../src/config/load.js';
import { closedPort } from '../helpers/net.js';
import { startSynapse, type MatrixUser, type TestHomeserver } from '../helpers/synapse.js';

describe('doctor: the Matrix homeserver', () => {
  let hs: TestHomeserver;
  let bot: MatrixUser;
  beforeAll(async () => {
    hs = await startSynapse();
    bot = await hs.registerUser('codebot');
  }, 60_000);
  afterAll(async () => {
    await hs?.stop();
  });
  const config = (matrix: Record<string, unknown>) => parseConfig({ sandbox: { warm_pool: 0 }, matrix }, {});

  it('says whose the token is when the homeserver answers and takes it', async () => {
    expect(await matrixReport(config({ homeserver_url: hs.url, access_token: bot.accessToken }))).toEqual({ homeserver: hs.url, ok: true, detail: `the homeserver answers; the token is ${bot.userId}'s` });
  });

  it('fails, saying why, on a refused token or a homeserver that does not answer; nothing without a homeserver', async () => {
    expect(await matrixReport(config({ homeserver_url: hs.url, access_token: 'syt_wrong' }))).toMatchObject({ ok: false, detail: /refused matrix\.access_token \(HTTP 401 M_UNKNOWN_TOKEN\)/ });
    expect(await matrixReport(config({ homeserver_url: `http://127.0.0.1:${await closedPort()}`, access_token: 'x' }))).toMatchObject({ ok: false, detail: /did not answer/ });
    expect(await matrixReport(config({}))).toBeUndefined();
  });

  it('a refused token makes doctor exit 1 with the Matrix line', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => (text += c.toString()));
    const code = await runDoctor(config({ homeserver_url: hs.url, access_token: 'syt_wrong' }), {}, out);
    expect(text).toMatch(/^matrix: FAILED {2}http:\/\/127\.0\.0\.1:\d+: the homeserver refused matrix\.access_token/m);
    expect(code).toBe(1);
  });
});
