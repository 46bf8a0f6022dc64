/**
 * The architecture's "nevers" (.dependency-cruiser.cjs, docs/architecture.md): the repository's
 * imports break none of them; and each rule does fire on a small tree that breaks it (so a rule
 * that no longer matches anything cannot pass unnoticed). The agent's rooms likewise: every folder
 * of src/agent is a room of the rules, and a room imported around its entry or upward is caught.
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
  'src/agent/loop/index.ts': [],
  'src/agent/loop/l.ts': ['../verification/v.js'], // a room around another's entry
  'src/agent/verification/v.ts': ['../loop/index.js'], // a room upward
};

describe('the architecture', () => {
  it('the repository keeps every never: no violation in src/, adapters/ and bench/', async () => {
    const found = await violations(ROOT, ['src', 'adapters', 'bench']);
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

  it('the rooms name every folder of src/agent, each once, and every module lies in a room', async () => {
    const { createRequire } = await import('node:module');
    const config = createRequire(import.meta.url)(CONFIG) as { forbidden: { name: string; from: { path: string } }[] };
    const rooms = config.forbidden.filter((r) => r.name === 'agent-room-no-upward-import').map((r) => /^\^src\/agent\/([^/]+)\/$/.exec(r.from.path)?.[1]);
    const entries = await readdir(join(ROOT, 'src/agent'), { withFileTypes: true });
    expect(new Set(rooms).size).toBe(rooms.length);
    expect([...rooms].sort()).toEqual(entries.filter((d) => d.isDirectory()).map((d) => d.name).sort());
    expect(entries.filter((d) => !d.isDirectory()).map((d) => d.name)).toEqual([]);
    for (const room of rooms) expect((await readdir(join(ROOT, 'src/agent', room!))).includes('index.ts'), `src/agent/${room}/index.ts`).toBe(true);
  });

  it('a room of the agent imported around its entry or upward is caught, from a room or from another layer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rooms-'));
    const tree: Record<string, string[]> = {
      'src/agent/run/index.ts': ['./events.js'],
      'src/agent/run/events.ts': [],
      'src/agent/verification/index.ts': ['./verdict.js'],
      'src/agent/verification/verdict.ts': ['../run/index.js', '../loop/index.js'], // through the entry (fine), then upward
      'src/agent/verification/checks.ts': ['../run/events.js'], // a lower room, around its entry
      'src/agent/loop/index.ts': ['./agent.js'],
      'src/agent/loop/agent.ts': ['../verification/index.js', './steps.js'], // through the entry, and its own room's file: fine
      'src/agent/loop/steps.ts': ['../verification/checks.js'], // around the entry
      'src/chat/job.ts': ['../agent/loop/index.js', '../agent/loop/steps.js'], // another layer: the entry (fine), then around it
    };
    try {
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['src'] }));
      for (const [file, imports] of Object.entries(tree)) {
        await mkdir(dirname(join(dir, file)), { recursive: true });
        const body = imports.map((to, i) => `import * as m${i} from '${to}';\nexport const u${i} = m${i};`).join('\n');
        await writeFile(join(dir, file), `${body}\nexport const here = 1;\n`);
      }
      const found = (await violations(dir, ['src'])).filter((v) => v.rule.name.startsWith('agent-'));
      expect(found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort()).toEqual(
        [
          'agent-room-no-upward-import: src/agent/verification/verdict.ts → src/agent/loop/index.ts',
          'agent-room-only-through-its-entry: src/agent/verification/checks.ts → src/agent/run/events.ts',
          'agent-room-only-through-its-entry: src/agent/loop/steps.ts → src/agent/verification/checks.ts',
          'agent-only-through-room-entries: src/chat/job.ts → src/agent/loop/steps.ts',
        ].sort(),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

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
          'agent-room-only-through-its-entry',
          'agent-only-through-room-entries', // src/text/cut.ts → src/agent/a.ts
          'agent-room-no-upward-import',
        ].sort(),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
