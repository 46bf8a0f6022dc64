/** Every platform of the contract runs in both modes: each world has its test file. */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLATFORMS } from './drivers.js';

describe('the chat contract files', () => {
  it('runs every platform of drivers.ts embedded and in queue mode, one test file each', () => {
    const files = readdirSync(new URL('.', import.meta.url)).filter((f) => f.startsWith('chat-contract-') && f.endsWith('.test.ts'));
    const expected = Object.keys(PLATFORMS).flatMap((p) => ['embedded', 'queue'].map((m) => `chat-contract-${p.toLowerCase()}-${m}.test.ts`));
    expect(files.sort()).toEqual(expected.sort());
  });
});
