/**
 * Channel memory in the terminal, as a user meets it: `/remember` and `/memory` in the session, and
 * `code-agent memory add|list|forget [--conversation C] [--json]` for scripts. The built CLI, the
 * real sandbox, a SQLite store in the test's folder, the fake OpenAI server (what it received is
 * what the model was told).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const DEFINITION = 'revenue = units × unit_price';
/** How the prompt writes it (math signs as Python writes them). */
const TOLD = 'revenue = units * unit_price';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
beforeAll(requireBuiltCli);

async function folder(extraConfig = '', replies = [py('print("revenue 42")')]): Promise<string> {
  fake = await startFakeOpenAi({ replies });
  const dir = mkdtempSync(join(tmpdir(), 'cli-memory-'));
  writeFileSync(join(dir, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\n  max_retries: 0\nagent:\n  verify: off\n${extraConfig}`);
  return dir;
}

const told = () => fake!.requests.map((r) => JSON.stringify(r.messages));

describe('memory in the terminal session', () => {
  it('/remember: the next run carries the definition and says so; /memory lists it; /memory forget removes it from the next run', async () => {
    const dir = await folder();
    const r = await runCli([], dir, [`/remember ${DEFINITION}`, '/memory', '/run total revenue please', '/memory forget m1', '/memory', '/run total revenue again', '/exit', ''].join('\n'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('📌 Remembered for the terminal (m1)');
    expect(r.stdout).toMatch(/🧠 Memory of the terminal: 1 of 200 entries/);
    expect(r.stdout).toMatch(new RegExp(`m1 · ${DEFINITION} · added by terminal`));
    expect(r.stdout).toContain(`[Agent] 📌 used: ${DEFINITION}`);
    expect(r.stdout).toContain('🗑️ Forgotten (m1)');
    expect(r.stdout).toContain('The memory of the terminal is empty');
    const requests = told();
    expect(requests).toHaveLength(2);
    expect(requests[0]).toContain(TOLD);
    expect(requests[1]).not.toContain(TOLD);
    expect(r.stdout.split('📌 used:').length).toBe(2); // said once: the second run had nothing
  });
});

describe('the offer after a correction, in the terminal', () => {
  it('an /improve whose feedback corrected an answered run says how to remember it; a first run does not', async () => {
    const dir = await folder('', [py('print("sales 10")'), py('print("revenue 7")')]);
    const r = await runCli([], dir, ['/run total sales', '/improve sales means units times unit_price', '/exit', ''].join('\n'));
    expect(r.code).toBe(0);
    expect(r.stdout.split('📌 Remember this').length).toBe(2);
    expect(r.stdout).toContain("📌 Remember this for the terminal's next runs? Type: /remember sales means units times unit_price");
  });
});

describe('code-agent memory', () => {
  it('adds, lists and forgets for scripts (--json); the terminal and a chat channel never share; code-agent run carries it', async () => {
    const dir = await folder();
    const added = await runCli(['memory', 'add', '--json', DEFINITION], dir);
    expect(added.code, added.stderr).toBe(0);
    const entry = JSON.parse(added.stdout) as { id: string; text: string; addedBy: string; conversationId: string };
    expect(entry).toMatchObject({ text: DEFINITION, conversationId: 'cli:local' });
    expect(entry.addedBy).toMatch(/^terminal/);
    const other = await runCli(['memory', 'add', '--conversation', 'slack:T1:C1', '--by', 'U7', 'EU means DE, FR, IT, ES and NL'], dir);
    expect(other.stdout).toMatch(/^remembered m\d+ for slack:T1:C1: EU means/);

    // these only read the memory: they run at once, as a script's processes would
    const [listedJson, channel, run] = await Promise.all([
      runCli(['memory', 'list', '--json'], dir),
      runCli(['memory', 'list', '--conversation', 'slack:T1:C1'], dir),
      runCli(['run', 'total revenue'], dir),
    ]);
    const listed = JSON.parse(listedJson.stdout) as { text: string }[];
    expect(listed.map((e) => e.text)).toEqual([DEFINITION]);
    expect(channel.stdout).toMatch(/^m\d+ · EU means DE, FR, IT, ES and NL · added by U7 on \d{4}-\d{2}-\d{2}\n$/);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`📌 used: ${DEFINITION}`);
    expect(told()[0]).toContain(TOLD);
    expect(told()[0]).not.toContain('EU means');

    const forgot = await runCli(['memory', 'forget', entry.id, '--by', 'ops', '--json'], dir);
    expect(JSON.parse(forgot.stdout)).toMatchObject({ id: entry.id, removedBy: 'ops', addedBy: entry.addedBy });
    const [afterForget, auditJson, again, unknown] = await Promise.all([
      runCli(['memory', 'list', '--json'], dir),
      runCli(['memory', 'list', '--all', '--json'], dir),
      runCli(['memory', 'forget', entry.id], dir),
      runCli(['memory', 'forget', 'm999'], dir),
    ]);
    expect(JSON.parse(afterForget.stdout)).toEqual([]);
    const audit = JSON.parse(auditJson.stdout) as { id: string; removedBy?: string }[];
    expect(audit.map((e) => [e.id, e.removedBy])).toEqual([[entry.id, 'ops']]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${entry.id} of the terminal (cli:local) was forgotten already, by ops`);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no entry m999 in the memory of the terminal (cli:local)');
  });

  it('refuses past memory.max_entries and an empty or too long definition, with exit 2 and the config key', async () => {
    const dir = await folder('memory:\n  max_entries: 1\n  max_definition_chars: 20\n');
    const badDir = await folder('memory:\n  max_entries: lots\n');
    // the refusals that need no entry (another conversation, another folder) start with the first add
    const [one, long, empty, bad] = await Promise.all([
      runCli(['memory', 'add', 'one'], dir),
      runCli(['memory', 'add', '--conversation', 'c2', 'x'.repeat(21)], dir),
      runCli(['memory', 'add', '--conversation', 'c2', '  '], dir),
      runCli(['memory', 'add', 'x'], badDir),
    ]);
    expect(one.code).toBe(0);
    const full = await runCli(['memory', 'add', 'two'], dir);
    expect(full.code).toBe(2);
    expect(full.stderr).toContain('the limit is 1 (memory.max_entries)');
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('the limit is 20 (memory.max_definition_chars)');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the definition is empty');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('memory.max_entries');
  });
});
