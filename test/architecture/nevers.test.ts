/**
 * The architecture's "nevers" (.dependency-cruiser.cjs, docs/architecture.md): the repository's
 * imports break none of them; and each rule does fire on a small tree that breaks it (so a rule
 * that no longer matches anything cannot pass unnoticed).
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Cruises `dirs` under `cwd` with the repository's rules; returns the violations. */
async function violations(cwd: string, dirs: string[]): Promise<Violation[]> {
  // depcruise exits non-zero when it finds violations: the JSON is on stdout either way
  const { stdout } = await run(process.execPath, [DEPCRUISE, '--config', CONFIG, '--output-type', 'json', ...dirs], { cwd, maxBuffer: 64 * 1024 * 1024 }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

/** Files of a tree that breaks every rule once: path → its imports. */
const BROKEN: Record<string, string[]> = {
  'adapters/chatty/port.ts': ['../../src/queue/q.js'], // a platform straight to the queue
  'adapters/cli/main.ts': ['../../src/queue/q.js'], // the terminal to the queue
  'src/chat/render.ts': ['../sandbox/types.js'], // the pipeline to the sandbox
  'src/sandbox/types.ts': ['../llm/types.js'], // the sandbox to the LLM
  'src/history/store.ts': ['../chat/render.js'], // the store to chat
  'src/text/cut.ts': ['../agent/a.js'], // text upward
  'src/memory/m.ts': ['../programs/p.js'], // a layer to one above it
  'src/programs/p.ts': [],
  'src/agent/a.ts': ['./b.js'], // a cycle: a → b → a
  'src/agent/b.ts': ['./a.js', '../../adapters/chatty/port.js'], // and the core to a platform
  'src/queue/q.ts': [],
  'src/llm/types.ts': [],
  'src/tools/t.ts': [],
};

describe('the architecture', () => {
  it('the repository keeps every never: no violation in src/ and adapters/', async () => {
    const found = await violations(ROOT, ['src', 'adapters']);
    expect(found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 120_000);

  it('the layers name every folder of src/, each once', async () => {
    const { createRequire } = await import('node:module');
    const config = createRequire(import.meta.url)(CONFIG) as { forbidden: { name: string; from: { path: string } }[] };
    const layered = config.forbidden.filter((r) => r.name === 'no-upward-import').map((r) => /^\^src\/([^/]+)\/$/.exec(r.from.path)?.[1]);
    const folders = (await readdir(join(ROOT, 'src'), { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(new Set(layered).size).toBe(layered.length);
    expect([...layered].sort()).toEqual(folders.sort());
  });

  it('each rule fires on a tree that breaks it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nevers-'));
    try {
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['src', 'adapters'] }));
      for (const [file, imports] of Object.entries(BROKEN)) {
        await mkdir(dirname(join(dir, file)), { recursive: true });
        const body = imports.map((to, i) => `import * as m${i} from '${to}';\nexport const u${i} = m${i};`).join('\n');
        await writeFile(join(dir, file), `${body}\nexport const here = 1;\n`);
      }
      const fired = new Set((await violations(dir, ['src', 'adapters'])).map((v) => v.rule.name));
      expect([...fired].sort()).toEqual(
        [
          'no-cycle',
          'platforms-only-through-the-pipeline',
          'terminal-never-the-queue',
          'core-knows-no-platform',
          'chat-never-the-sandbox',
          'sandbox-knows-no-llm',
          'store-knows-no-chat',
          'no-upward-import',
        ].sort(),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
