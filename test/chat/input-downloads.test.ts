/**
 * A request's files within the caps, once for every platform: too many, too large (declared or
 * fetched), no link, failed — each said, none truncated; the thread told once which were not used;
 * a platform's file hosts the only place a download goes, with its credentials.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadInputs, fetchFromHosts, hostDownloads, notUsedText, threadInputs, type FetchCap } from '../../src/chat/input-downloads.js';
import { startCountingServer, type CountingServer } from '../helpers/net.js';

describe('downloadInputs', () => {
  it('takes at most maxFiles, never fetches a file declared over maxBytes, and says why each other one was not used', async () => {
    const fetched: string[] = [];
    const fetch = async (file: { name: string; url: string }) => {
      fetched.push(file.name);
      if (file.url === 'fail') throw new Error('download failed (HTTP 404)\nmore');
      return Buffer.from(file.url);
    };
    const files = [
      { name: 'a.csv', url: 'a,b' },
      { name: 'big.bin', url: 'x', bytes: 2048 },
      { name: 'gone.txt', url: 'fail' },
      { name: '../../etc/c.txt', url: 'c' },
      { name: 'extra.txt', url: 'e' },
    ];
    const { files: got, skipped } = await downloadInputs(files, { maxFiles: 4, maxBytes: 1024, fetch });
    expect(got.map((f) => [f.name, f.content.toString()])).toEqual([['a.csv', 'a,b'], ['c.txt', 'c']]);
    expect(fetched).toEqual(['a.csv', 'gone.txt', '../../etc/c.txt']);
    expect(skipped).toEqual(['big.bin: 2.0 KB is over the 1.0 KB limit', 'gone.txt: download failed (HTTP 404)', 'extra.txt: more than 4 files']);
  });

  it('hands each fetch the cap to read under, and never fetches a file without a link', async () => {
    const caps: FetchCap[] = [];
    const fetch = async (_file: unknown, cap: FetchCap) => {
      caps.push(cap);
      return Buffer.from('x');
    };
    const { skipped } = await downloadInputs([{ name: 'nolink.csv', url: '' }, { name: 'ok.csv', url: 'u' }], { maxFiles: 5, maxBytes: 2 * 1024 * 1024, fetch });
    expect(skipped).toEqual(['nolink.csv: the platform gave no download link']);
    expect(caps).toEqual([{ maxBytes: 2 * 1024 * 1024, tooLarge: 'larger than the 2.0 MB limit' }]);
  });
});

describe('threadInputs', () => {
  const fetch = async (file: { url: string }) => {
    if (file.url === 'fail') throw new Error('not hosted by the platform');
    return Buffer.from(file.url);
  };

  it('posts one note naming every file not used, in the platform markup', async () => {
    const posted: string[] = [];
    const files = await threadInputs([{ name: 'a.csv', url: 'a' }, { name: 'x.csv', url: 'fail' }, { name: 'y.csv', url: 'fail' }], { maxFiles: 5, maxBytes: 100, fetch }, {
      post: async (msg: string) => void posted.push(msg),
      note: (text) => `<note>${text}</note>`,
    });
    expect(files.map((f) => f.name)).toEqual(['a.csv']);
    expect(posted).toEqual(['<note>Not used: x.csv: not hosted by the platform; y.csv: not hosted by the platform</note>']);
  });

  it('posts nothing when every file was used, nor for a request without files; a failed post does not lose the files', async () => {
    const posted: string[] = [];
    const target = { post: async (msg: string) => void posted.push(msg), note: (t: string) => t };
    expect(await threadInputs([], { maxFiles: 5, maxBytes: 100, fetch }, target)).toEqual([]);
    expect((await threadInputs([{ name: 'a.csv', url: 'a' }], { maxFiles: 5, maxBytes: 100, fetch }, target)).map((f) => f.name)).toEqual(['a.csv']);
    expect(posted).toEqual([]);
    const refused = { post: async () => Promise.reject(new Error('the platform refused')), note: (t: string) => t };
    const files = await threadInputs([{ name: 'a.csv', url: 'a' }, { name: 'b.csv', url: 'fail' }], { maxFiles: 5, maxBytes: 100, fetch }, refused);
    expect(files.map((f) => f.name)).toEqual(['a.csv']);
  });

  it('keeps the note within 1,500 characters however many and long the names', () => {
    const text = notUsedText(Array.from({ length: 50 }, (_, i) => `${'n'.repeat(100)}${i}.csv: failed`));
    expect([...text].length).toBeLessThanOrEqual(1500);
    expect(text.startsWith('Not used: nnnn')).toBe(true);
  });
});

describe('fetchFromHosts', () => {
  let other: CountingServer | undefined;
  let host: http.Server | undefined;
  afterEach(async () => {
    await other?.close();
    if (host) await new Promise<void>((r) => host!.close(() => r()));
    other = host = undefined;
  });

  /** A file host that serves `body` to a request bearing `token`, else 401. */
  async function fileHost(body: string, token: string): Promise<string> {
    host = http.createServer((req, res) => {
      res.statusCode = req.headers.authorization === `Bearer ${token}` ? 200 : 401;
      res.end(res.statusCode === 200 ? body : 'no');
    });
    await new Promise<void>((r) => host!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  }

  it('fetches from its hosts with its credentials, refuses any other host unfetched, and cuts a body over the cap', async () => {
    other = await startCountingServer('secret');
    const origin = await fileHost('a,b\n1,2\n', 't0k');
    const fetch = fetchFromHosts({ origins: [origin], headers: { authorization: 'Bearer t0k' } });
    const { files, skipped } = await downloadInputs(
      [{ name: 'ok.csv', url: `${origin}/f` }, { name: 'elsewhere.csv', url: `${other.url}/f` }],
      { maxFiles: 5, maxBytes: 1024, fetch },
    );
    expect(files.map((f) => [f.name, f.content.toString()])).toEqual([['ok.csv', 'a,b\n1,2\n']]);
    expect(skipped).toEqual(['elsewhere.csv: not hosted by the platform']);
    expect(other.hits()).toBe(0);
    const small = await downloadInputs([{ name: 'big.csv', url: `${origin}/f` }], { maxFiles: 5, maxBytes: 4, fetch });
    expect(small.skipped).toEqual(['big.csv: larger than the 4 B limit']);
    const anonymous = await downloadInputs([{ name: 'ok.csv', url: `${origin}/f` }], { maxFiles: 5, maxBytes: 1024, fetch: fetchFromHosts({ origins: [origin] }) });
    expect(anonymous.skipped).toEqual(['ok.csv: download failed (HTTP 401)']);
    // the same, with the limits: what a platform's thread gives threadInputs
    const downloads = hostDownloads({ maxFiles: 1, maxBytes: 1024 }, { origins: [origin], headers: { authorization: 'Bearer t0k' } });
    const limited = await downloadInputs([{ name: 'ok.csv', url: `${origin}/f` }, { name: 'second.csv', url: `${origin}/f` }], downloads);
    expect([limited.files.map((f) => f.name), limited.skipped]).toEqual([['ok.csv'], ['second.csv: more than 1 files']]);
  });
});
