/**
 * Team programs in the terminal, as a user meets them: `/program save <name>`, `/programs` and
 * `/program <name> [k=v]` in the session (`/save <file>` keeps its meaning), and
 * `code-agent run --program <name> [--param k=v] [--json]` and `code-agent programs list|show|remove`
 * for scripts. The built CLI, the real sandbox, a SQLite store in the test's folder, the fake
 * OpenAI server (a team program's run sends it nothing).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const CODE = 'import csv\nREGION = "EU"\nDAYS = 7\nrows = list(csv.DictReader(open("sales.csv")))\nprint(f"{REGION}/{DAYS}: " + str(sum(int(r["units"]) for r in rows if r["region"] == REGION)))';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
beforeAll(requireBuiltCli);

async function folder(): Promise<string> {
  fake = await startFakeOpenAi({ replies: [py(CODE)] });
  const dir = mkdtempSync(join(tmpdir(), 'cli-programs-'));
  writeFileSync(join(dir, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\n  max_retries: 0\nagent:\n  verify: off\n`);
  writeFileSync(join(dir, 'sales.csv'), 'region,units\nEU,2\nEU,3\nUS,4\n');
  writeFileSync(join(dir, 'renamed.csv'), 'area,units\nEU,2\n');
  return dir;
}

describe('team programs in the terminal', () => {
  it('the session saves the current run, lists it and runs it with values, with no LLM call; /save <file> still writes the code', async () => {
    const dir = await folder();
    const lines = ['/attach sales.csv', '/run units sold in the EU', '/program save units-by-region', '/save kept.py', '/programs', '/program units-by-region REGION=US', '/program units-by-region DAYS=soon', '/program units-by-region show', '/exit', ''];
    const r = await runCli([], dir, lines.join('\n'));
    expect(r.code, r.stderr).toBe(0);
    expect(fake!.requests).toHaveLength(1);
    expect(r.stdout).toContain('EU/7: 5');
    expect(r.stdout).toMatch(/💾 Saved as team program `units-by-region` v1 by terminal/);
    expect(readFileSync(join(dir, 'kept.py'), 'utf8')).toContain('REGION = "EU"');
    expect(r.stdout).toMatch(/units-by-region v1 · approved by terminal:\S+ on \d{4}-\d{2}-\d{2} · REGION="EU" DAYS=7/);
    expect(r.stdout).toMatch(/▶️ Running team program `units-by-region` v1, approved by terminal:\S+ on \d{4}-\d{2}-\d{2}: the saved code, no LLM call\./);
    expect(r.stdout).toContain('US/7: 4');
    expect(r.stdout).toMatch(/\[Agent\] ✅ team program `units-by-region` v1, approved by terminal/);
    expect(r.stdout).toContain('Error: DAYS takes a whole number (int); "soon" was not read as a number. For example: DAYS=8');
    expect(r.stdout).toContain('Parameters (set with name=value):');
    expect(r.stdout).toContain('file sales.csv — columns: region (str), units (int)');
  });

  it('the session: /run in other words runs the team program that answers it, named; /improve write a new program takes the usual path', async () => {
    const dir = await folder();
    fake!.enqueue('{"match": true, "params": {"REGION": "US"}}', py('print("written anew")'));
    const lines = ['/attach sales.csv', '/run units sold in the EU', '/program save units-by-region', '/run how many units did the US region sell?', '/improve write a new program', '/exit', ''];
    const r = await runCli([], dir, lines.join('\n'));
    expect(r.code, r.stderr).toBe(0);
    expect(fake!.requests).toHaveLength(3); // the first program, the matching call, the new program
    expect(r.stdout).toMatch(/🧩 This looks like team program `units-by-region` v1, approved by terminal:\S+ on \d{4}-\d{2}-\d{2}: running it \(the saved code, no LLM call\)\. Not what you asked\? \/improve write a new program takes the usual path\./);
    expect(r.stdout).toContain('US/7: 4');
    const prompt = JSON.stringify(fake!.requests[2]!.messages);
    expect(prompt).toContain('how many units did the US region sell?');
    expect(prompt).toContain('Write a new program for the request');
    expect(r.stdout).toContain('written anew');
  }, 120_000);

  it('code-agent run --program runs it (--json, exit codes as run); files that do not fit are said before anything runs; programs list|show|remove', async () => {
    const dir = await folder();
    expect((await runCli(['run', '--file', 'sales.csv', 'units sold in the EU'], dir)).code).toBe(0);
    expect((await runCli([], dir, '/open 1\n/program save units-by-region\n/exit\n')).stdout).toContain('Saved as team program');
    const asked = fake!.requests.length;

    // the commands below only read the program (one saves a run): they run at once, as processes a script starts
    const [ran, misfit, bad, nothing, withWords, listedJson, plain, elsewhere, shown] = await Promise.all([
      runCli(['run', '--program', 'units-by-region', '--param', 'DAYS=30', '--json'], dir),
      runCli(['run', '--program', 'units-by-region', '--file', 'renamed.csv'], dir),
      runCli(['run', '--program', 'units-by-region', '--param', 'REGON=US'], dir),
      runCli(['run', '--program', 'nothing'], dir),
      runCli(['run', '--program', 'units-by-region', 'and words'], dir),
      runCli(['programs', 'list', '--json'], dir),
      runCli(['programs', 'list'], dir),
      runCli(['programs', 'list', '--conversation', 'slack:T1:C1'], dir),
      runCli(['programs', 'show', 'units-by-region'], dir),
    ]);

    // the files it was saved with, a value given
    expect(ran.code, ran.stderr).toBe(0);
    const json = JSON.parse(ran.stdout) as { success: boolean; stdout: string; attempts: number; program: { name: string; version: number; params: Record<string, unknown> } };
    expect(json).toMatchObject({ success: true, attempts: 1, program: { name: 'units-by-region', version: 1, params: { DAYS: 30 } } });
    expect(json.stdout.trim()).toBe('EU/30: 5');
    expect(ran.stderr).toContain('✅ team program `units-by-region` v1');

    // files that do not fit: exit 1, nothing ran, said plainly
    expect(misfit.code).toBe(1);
    expect(misfit.stdout).toMatch(/📎 The files do not fit team program `units-by-region` v1, so nothing was run\. In the interactive session \(`code-agent`\), type \/improve <what changed> after the run to adapt it/);
    expect(misfit.stdout).toContain('- the file sales.csv is missing (the program reads it: CSV: 3 data rows, columns: region, units)');
    expect(misfit.stdout).not.toContain('Executing code');

    // refusals: exit 2, no LLM call
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('`units-by-region` has no parameter "REGON": its parameters are REGION (str, default "EU"), DAYS (int, default 7).');
    expect(nothing.stderr).toContain('No team program `nothing` in this channel; its programs are `units-by-region`.');
    expect(withWords.code).toBe(2);
    expect(fake!.requests.length).toBe(asked);

    const listed = JSON.parse(listedJson.stdout) as { name: string }[];
    expect(listed.map((p) => p.name)).toEqual(['units-by-region']);
    // the header says the commands a script types, as they are spelled there
    expect(plain.stdout).toContain('code-agent run --program <name> [--param k=v]…');
    expect(plain.stdout).toContain('code-agent programs show <name>');
    expect(elsewhere.stdout).toContain('No team programs in slack:T1:C1 yet');
    expect(shown.stdout).toContain('Versions:');
    expect(shown.stdout).toContain('rows = list(csv.DictReader(open("sales.csv")))');
    const removed = await runCli(['programs', 'remove', 'units-by-region', '--by', 'ops'], dir);
    expect(removed.stdout).toMatch(/^removed team program units-by-region \(v1\) of the terminal \(cli:local\); kept for the audit, by ops\n$/);
    expect((await runCli(['programs', 'show', 'units-by-region'], dir)).code).toBe(1);
    expect(existsSync(join(dir, 'sales.csv'))).toBe(true);
  }, 120_000); // a dozen CLI starts: about 55 s on a loaded 2-core machine

  it('code-agent run "<requirement in other words>" runs the team program that answers it, named, with one short LLM call; --new writes a new program', async () => {
    const dir = await folder();
    expect((await runCli(['run', '--file', 'sales.csv', 'units sold in the EU'], dir)).code).toBe(0);
    expect((await runCli([], dir, '/open 1\n/program save units-by-region\n/exit\n')).stdout).toContain('Saved as team program');
    let asked = fake!.requests.length;

    // the matching call's answer: this program, with the value the requirement sets
    fake!.enqueue('{"match": true, "params": {"REGION": "US"}}');
    const paraphrase = 'how many units did the US region sell?';
    const matched = await runCli(['run', paraphrase], dir);
    expect(matched.code, matched.stderr).toBe(0);
    expect(fake!.requests.length).toBe(asked + 1); // the matching call only: no code was written
    expect(JSON.stringify(fake!.requests[asked]!.messages)).toContain(paraphrase);
    expect(matched.stdout).toMatch(/🧩 This looks like team program `units-by-region` v1, approved by terminal:\S+ on \d{4}-\d{2}-\d{2}: running it \(the saved code, no LLM call\)\. Not what you asked\? The same command with --new takes the usual path\./);
    expect(matched.stdout).toContain('REGION = "US"');
    expect(matched.stdout).toContain('US/7: 4');
    expect(matched.stdout).toMatch(/\[Agent\] ✅ team program `units-by-region` v1, approved by terminal/);

    // --json: the program field says it was matched, with the values
    asked = fake!.requests.length;
    fake!.enqueue('{"match": true, "params": {"DAYS": 30}}');
    const json = await runCli(['run', '--json', 'units sold in the EU over 30 days'], dir);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: true, stdout: 'EU/30: 5\n', program: { name: 'units-by-region', version: 1, matched: true, params: { DAYS: 30 } } });
    expect(fake!.requests.length).toBe(asked + 1);

    // --new: no matching call; the LLM writes a program for the requirement as it is
    asked = fake!.requests.length;
    fake!.enqueue(py('print("written anew")'));
    const fresh = await runCli(['run', '--new', paraphrase], dir);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fake!.requests.length).toBe(asked + 1);
    expect(JSON.stringify(fake!.requests[asked]!.messages)).not.toContain('saved program');
    expect(fresh.stdout).toContain('written anew');
    expect(fresh.stdout).not.toContain('🧩');
    expect(fresh.stdout).not.toContain('team program');

    // the LLM says "not this": the usual path, nothing named
    asked = fake!.requests.length;
    fake!.enqueue('{"match": false}', py('print("per customer")'));
    const other = await runCli(['run', 'units sold in the EU per customer'], dir);
    expect(other.code, other.stderr).toBe(0);
    expect(fake!.requests.length).toBe(asked + 2);
    expect(other.stdout).toContain('per customer');
    expect(other.stdout).not.toContain('🧩');

    // --new with --program is a usage error
    const both = await runCli(['run', '--new', '--program', 'units-by-region'], dir);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--new writes a new program for a requirement: use it without --program <name>');
  }, 120_000);
});
