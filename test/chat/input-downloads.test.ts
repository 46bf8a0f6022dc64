/** A request's files within the caps: too many, too large (declared or fetched), failed — each said, none truncated. */
import { describe, expect, it } from 'vitest';
import { downloadInputs } from '../../src/chat/input-downloads.js';

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
});
