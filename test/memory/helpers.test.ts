/**
 * The parts of definitions as code that need no LLM: what is kept of a helper reply, its name and
 * docstring, whether a program imports it, the module a run's work dir gets, a helper written into
 * an approved example, and how a check's report reads (the check itself runs in the real sandbox:
 * definition-helpers.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Run, RunMemory } from '../../src/history/types.js';
import { answerCode } from '../../src/programs/team-programs.js';
import { helperDoc, helperName, helperSignature, inlineHelpers, onlyDefinitions, readHelperCheck, teamModule, usesHelper, withTeamModule } from '../../src/memory/helpers.js';
import { definitionsSection } from '../../src/memory/prompt.js';
import { helperNotice } from '../../src/memory/helper-text.js';
import { entryLine } from '../../src/memory/commands.js';

const HELPER = "import pandas as pd\n\ndef revenue(df):\n    \"\"\"the revenue of each row\"\"\"\n    return df['units'] * df['unit_price']";
const memoryWith = (...helpers: { name: string; code: string }[]): RunMemory => ({
  definitions: helpers.map((h, i) => ({ id: `m${i + 1}`, text: `definition ${i + 1}`, helper: { ...h, checked: 'x.csv: 1', runId: 'r1' } })),
  examples: [],
});

describe('a helper reply', () => {
  it('keeps imports, capital constants and functions; drops what would run at import', () => {
    const reply = `${HELPER}\n\nEU = [\n    'DE',\n]\n\ndf = pd.read_csv('sales.csv')\nprint(revenue(df))\nif __name__ == '__main__':\n    print('x')`;
    const kept = onlyDefinitions(reply);
    expect(kept).toContain("def revenue(df):\n    \"\"\"the revenue of each row\"\"\"\n    return df['units'] * df['unit_price']");
    expect(kept).toContain("EU = [\n    'DE',\n]");
    expect(kept).not.toContain('print');
    expect(kept).not.toContain('read_csv');
  });

  it('is named by its first top-level function; no function, a long one or the name team is refused', () => {
    expect(helperName(HELPER)).toEqual({ name: 'revenue' });
    expect(helperName("x = 1")).toEqual({ error: 'the reply holds no top-level function (def name(df): …)' });
    expect(helperName(`def team(df):\n    return 1`)).toEqual({ error: 'the function may not be named team' });
    expect(helperName(`def f(df):\n    return 1\n${'#'.repeat(2000)}`)).toMatchObject({ error: expect.stringContaining('the limit is 2000') });
    expect(helperDoc(HELPER)).toBe('the revenue of each row');
    expect(helperSignature(HELPER, 'revenue')).toBe('revenue(df)');
  });
});

describe('a program and its helpers', () => {
  it('tells whether a program imports a helper', () => {
    expect(usesHelper('from team import revenue\nprint(1)', 'revenue')).toBe(true);
    expect(usesHelper('from team import (is_eu, revenue as r)', 'revenue')).toBe(true);
    expect(usesHelper('import team\nx = team.revenue(df)', 'revenue')).toBe(true);
    expect(usesHelper('from team import revenue_total', 'revenue')).toBe(false);
    expect(usesHelper("# from team import revenue\nrevenue = 1", 'revenue')).toBe(false);
  });

  it('makes one team.py of the run\'s helpers (one per name), and places it unless the workspace has its own', () => {
    const memory = memoryWith({ name: 'revenue', code: HELPER }, { name: 'revenue', code: 'def revenue(df):\n    return 0' }, { name: 'is_eu', code: 'def is_eu(df):\n    return df["c"] == "DE"' });
    const module = teamModule(memory)!;
    expect(module.name).toBe('team.py');
    const text = module.content.toString();
    expect(text.match(/def revenue/g)).toHaveLength(1);
    expect(text).toContain('def is_eu');
    const data = { name: 'sales.csv', content: Buffer.from('a\n1\n') };
    expect(withTeamModule([data], memory)!.map((f) => f.name)).toEqual(['sales.csv', 'team.py']);
    const own = { name: 'team.py', content: Buffer.from('X = 1\n') };
    expect(withTeamModule([data, own], memory)).toEqual([data, own]);
    expect(withTeamModule([data], { definitions: [{ id: 'm1', text: 'd' }], examples: [] })).toEqual([data]);
  });

  it('writes the helpers a program imports into it (an alias kept), for an approved example', () => {
    const memory = memoryWith({ name: 'revenue', code: HELPER });
    const program = "import pandas as pd\nfrom team import revenue as rev\ndf = pd.read_csv('sales.csv')\nprint(rev(df).sum())";
    const inlined = inlineHelpers(program, memory);
    expect(inlined).not.toMatch(/from team import/);
    expect(inlined).toContain("def revenue(df):");
    expect(inlined).toContain('rev = revenue');
    expect(inlined.indexOf('def revenue')).toBeLessThan(inlined.indexOf('print(rev(df).sum())'));
    expect(inlineHelpers('print(1)', memory)).toBe('print(1)');
  });

  it('a team program saved from a run that imported a helper carries the helper (it runs without the run\'s memory)', () => {
    const now = new Date().toISOString();
    const code = 'from team import revenue\nprint(1)';
    const run: Run = { id: 'r1', conversationId: 'c', requirement: 'q', status: 'success', createdAt: now, updatedAt: now, memory: memoryWith({ name: 'revenue', code: HELPER }),
      attempts: [{ index: 1, trigger: 'requirement', code, usage: { promptTokens: 0, completionTokens: 0 }, createdAt: now, result: { success: true, stdout: '1', stderr: '', exitCode: 0, signal: null, timedOut: false, limitHit: null, durationMs: 1, artifacts: [] } }] };
    expect(answerCode(run)).toContain('def revenue(df):');
    expect(answerCode(run)).not.toContain('from team import');
  });

  it('tells the model to import the helper under its definition', () => {
    const section = definitionsSection(memoryWith({ name: 'revenue', code: HELPER }));
    expect(section).toContain('- definition 1\n  This definition is already written as code in team.py');
    expect(section).toContain('`from team import revenue`, then revenue(df) returns the revenue of each row.');
  });
});

describe("a helper's check report", () => {
  it('reads where the helper works, in words', () => {
    const report = JSON.stringify([
      { file: 'a.csv', kind: 'bool', rows: 10, true: 4 },
      { file: 'b.csv', kind: 'number', rows: 3, missing: 1 },
      { file: 'c.csv', error: "KeyError: 'x'" },
    ]);
    expect(readHelperCheck(report, '', true)).toEqual({ ok: true, checked: 'a.csv: True for 4 of 10 rows; b.csv: a number for each of 3 rows (1 missing)' });
    expect(readHelperCheck(JSON.stringify([{ file: 'x.csv', kind: 'scalar', value: 12 }]), '', true)).toEqual({ ok: true, checked: 'x.csv: 12' });
  });

  it('says why a helper failed: the first file\'s error, an import that failed, no table to check on', () => {
    expect(readHelperCheck(JSON.stringify([{ file: 'c.csv', error: "KeyError: 'x'" }]), '', true)).toEqual({ ok: false, error: "on c.csv: KeyError: 'x'" });
    expect(readHelperCheck('', 'Traceback …\n  File "team.py", line 2\nSyntaxError: invalid syntax\n', false)).toEqual({ ok: false, error: 'importing it failed: SyntaxError: invalid syntax' });
    expect(readHelperCheck('[]', '', true)).toEqual({ ok: false, error: 'none of the files is a table it could be checked on' });
  });
});

describe('how a helper is shown', () => {
  const helper = { name: 'revenue', code: HELPER, checked: 'sales.csv: a number for each of 3 rows', runId: 'r1' };
  const definition = { id: 'm3', text: 'revenue = units × unit_price' };

  it('written: its code, what the check saw and how to keep it; given: who approved it; none: why', () => {
    const written = helperNotice({ definition, helper, written: true });
    expect(written.title).toBe('🧩 Wrote `from team import revenue` for definition m3, checked on sales.csv: a number for each of 3 rows. Approve this run (👍) to keep it with the definition for the channel\'s next runs.');
    expect(written.lines).toEqual([definition.text, ...HELPER.split('\n')]);
    expect(helperNotice({ definition, helper: { ...helper, approvedBy: 'U2' }, written: false }).title).toBe("🧩 Using the team's `from team import revenue` for definition m3, approved by U2.");
    expect(helperNotice({ definition, written: true, note: "its check failed: on sales.csv: KeyError: 'price'" }).title).toBe(
      "🧩 No helper for definition m3: its check failed: on sales.csv: KeyError: 'price'. The run reads the definition as a sentence.",
    );
  });

  it('/memory lists a definition with its approved helper', () => {
    const line = entryLine({ id: 'm9', conversationId: 'c', kind: 'definition', text: definition.text, helper: { ...helper, approvedBy: 'U2' }, addedBy: 'U1', addedAt: '2026-12-01T00:00:00Z', bytes: 10 });
    expect(line).toBe('m9 · revenue = units × unit_price · as code: from team import revenue, approved by U2 · added by U1 on 2026-12-01');
  });
});
