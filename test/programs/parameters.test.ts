/**
 * A team program's parameters: read by Python's ast in the real sandbox (names, types, defaults,
 * where each literal is, the SQL sources and hosts the code names), and applied by replacing
 * exactly that literal — on lines with non-ASCII text before it, for negative numbers, floats and
 * triple-quoted strings — with values read as the parameter's type.
 */
import { describe, expect, it } from 'vitest';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { readFacts } from '../../src/programs/facts.js';
import { applyParameters, checkValues, splitWords } from '../../src/programs/parameters.js';

const CODE = [
  'from tools import sql',
  'import urllib.request',
  'TITLE = "Überblick € 😀"; REGION = "EU"',
  'THRESHOLD = -2.5',
  'period_days = 7',
  'NOTE = """two',
  'lines"""',
  'COUNTER = 0',
  'COUNTER = COUNTER + 1',
  'other = 5',
  '_PRIVATE = 1',
  'CHOICES = ["a"]',
  'def f():',
  '    LOCAL = 3',
  '    return LOCAL',
  'df = sql("shop", "SELECT 1")',
  'urllib.request.urlopen("https://api.example.com:8443/v1?x=1")',
  'print(TITLE, REGION, THRESHOLD, period_days, NOTE, COUNTER, other)',
].join('\n');

describe('team program parameters', () => {
  it('reads the parameters, sources and hosts with ast in the sandbox, and applies values by span', async () => {
    const executor = new BubblewrapExecutor({ limits: { wallTimeS: 20 } });
    const facts = await readFacts(executor, CODE);
    expect(facts.parameters.map((p) => [p.name, p.type, p.default])).toEqual([
      ['TITLE', 'str', 'Überblick € 😀'],
      ['REGION', 'str', 'EU'],
      ['THRESHOLD', 'float', -2.5],
      ['period_days', 'int', 7],
      ['NOTE', 'str', 'two\nlines'],
    ]);
    expect(facts.sources).toEqual(['shop']);
    expect(facts.hosts).toEqual(['api.example.com:8443']);

    const values = checkValues(facts.parameters, { region: 'North "America"', THRESHOLD: '1e3', PERIOD_DAYS: '30', NOTE: 'one', TITLE: 'Ä' }, 'p');
    const code = applyParameters(CODE, facts.parameters, values);
    expect(code.split('\n').slice(2, 6)).toEqual(['TITLE = "Ä"; REGION = "North \\"America\\""', 'THRESHOLD = 1000.0', 'period_days = 30', 'NOTE = "one"']);
    const result = await executor.execute(code.replace(/^df = sql.*$/m, '').replace(/^urllib.request.urlopen.*$/m, '').replace('from tools import sql', ''));
    expect(result.stdout.trim()).toBe('Ä North "America" 1000.0 30 one 1 5');
    await expect(readFacts(executor, 'def (:\n')).rejects.toThrow(/^the program does not parse: .*\(line 1\)$/);
  });

  it('splits quoted words and refuses an unclosed quote', () => {
    expect(splitWords(`REGION="North America" DAYS=7 NAME='a b' EMPTY=""`)).toEqual(['REGION=North America', 'DAYS=7', 'NAME=a b', 'EMPTY=']);
    expect(splitWords('REGION=“EU”')).toEqual(['REGION=EU']);
    expect(() => splitWords('REGION="EU')).toThrow('a quote (") is not closed in: REGION="EU');
  });
});
