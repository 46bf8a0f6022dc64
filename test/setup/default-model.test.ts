/** The default-model step of `npm run setup` (scripts/default-model.mjs) against the built CLI and the real model. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module without types, run by Node from setup
import { fetchDefaultModel } from '../../scripts/default-model.mjs';
import { KNOWN_MODELS, DEFAULT_LOCAL_MODEL } from '../../src/llm/model-catalog.js';
import { testModelPath } from '../../scripts/test-model.js';

const root = resolve(__dirname, '..', '..');
let cache: string | undefined;
afterEach(() => {
  if (cache) rmSync(cache, { recursive: true, force: true });
});

describe('npm run setup: the default local model', () => {
  it('says it is already in the user cache, with its path, and downloads nothing', async () => {
    cache = mkdtempSync(join(tmpdir(), 'setup-cache-'));
    const file = join(cache, 'models', KNOWN_MODELS[DEFAULT_LOCAL_MODEL]!.file);
    mkdirSync(join(cache, 'models'));
    symlinkSync(testModelPath(), file); // the real model: `model fetch` checks its sha256
    const logged: string[] = [];
    const line = await fetchDefaultModel(root, (l: string) => logged.push(l), { ...process.env, CODE_AGENT_CACHE: cache });
    expect(line).toBe(`default local model: already in the user cache: ${file}`);
    expect(logged).toEqual([]); // no "fetching" announcement
  });
});
