/**
 * Definitions as code, the parts that need no LLM and no sandbox: what the model is asked when a
 * run writes a definition's helper (a small named function, `def revenue(df)`), how the helpers a
 * run has become one module `team.py` in its work dir, the program that checks a helper on the
 * run's files in the sandbox, and how its report reads. The step that uses them is
 * `src/agent/memory-use/helper-step.ts`; keeping an approved helper with its definition is
 * `ChannelMemory.keepHelper`.
 *
 * Why a helper at all: the small local model, given a definition as a sentence, often computes the
 * plain reading anyway (docs/memory.md, "Definitions as code"); a function already written and
 * checked only has to be called.
 */
import type { DefinitionHelper } from '../history/memory.js';
import type { RunMemory } from '../history/types.js';
import type { InputFile } from '../sandbox/types.js';
import { pythonSigns } from '../text/python-signs.js';

/** The module the helpers are imported from (`from team import revenue`). */
export const TEAM_MODULE = 'team';

/** The module's file in the work dir. */
export const TEAM_FILE = `${TEAM_MODULE}.py`;

/** Longest helper kept, in characters (a helper is a few lines; a longer reply is no helper). */
export const MAX_HELPER_CHARS = 2000;

/** Longest reply of the helper's LLM call, in tokens. */
export const HELPER_MAX_TOKENS = 400;

/** The system prompt of the helper's LLM call. */
export const HELPER_PROMPT = `You turn a team's definition into one small Python function on a pandas DataFrame.
Reply with a single \`\`\`python code block holding the imports the function needs and the function: nothing else, no example call, no print, no file reading.`;

/**
 * The user message of the helper's LLM call: the definition (math signs as Python writes them), the
 * files it will be used on (their profile), and the function's contract.
 * @param definition the definition's sentence
 * @param profile the run's files as the model reads them (`profileSection`)
 * @param fileNames the files' names in the work dir
 */
export function helperRequest(definition: string, profile: string, fileNames: string[]): string {
  const read = fileNames.map((n) => `pd.read_csv('${n}')`).slice(0, 3).join(' or ');
  return [
    `The team's definition: ${pythonSigns(definition)}`,
    profile,
    `Write the function that applies this definition: \`def <name>(df):\`, where <name> is the defined word or phrase in snake_case ` +
      `(for example revenue, is_active_customer, fiscal_quarter, units). \`df\` is the DataFrame of one of these files exactly as ${read || 'pandas reads it'} gives it: ` +
      'convert inside the function what the definition needs (pd.to_datetime for dates, numbers typed as text). Return, per row, the defined value ' +
      '(a Series with one value per row) or whether each row is what the definition names (a boolean Series); only when the definition is about ' +
      'the whole table, one number. Use the exact column names of the profile. Start the function with a one-line docstring saying what it returns.',
  ].filter((t) => t !== '').join('\n\n');
}

/** Why a reply is no helper, or its function's name. */
export type HelperName = { name: string } | { error: string };

/**
 * The helper's function name: the first top-level `def` of the code (a public Python identifier).
 * @returns the name, or why the code is no helper (no function, a private name, too long)
 */
export function helperName(code: string): HelperName {
  if (code.length > MAX_HELPER_CHARS) return { error: `the helper is ${code.length} characters long; the limit is ${MAX_HELPER_CHARS}` };
  const m = /^def\s+([A-Za-z][A-Za-z0-9_]*)\s*\(/m.exec(code);
  if (!m) return { error: 'the reply holds no top-level function (def name(df): …)' };
  if (m[1] === TEAM_MODULE) return { error: `the function may not be named ${TEAM_MODULE}` };
  return { name: m[1]! };
}

/**
 * The helper's code without what runs at import: only top-level imports, constants written in
 * capitals, and function definitions are kept (an example call, a `print` or a file read the model
 * added under them would run in every program that imports `team`).
 */
export function onlyDefinitions(code: string): string {
  const out: string[] = [];
  let keeping = false;
  for (const line of code.replace(/\r\n?/g, '\n').split('\n')) {
    const top = line.length > 0 && !/^\s/.test(line);
    if (top && !/^[\])}]/.test(line)) keeping = /^(?:import\s|from\s+\S+\s+import\s|def\s|async\s+def\s|@|[A-Z][A-Z0-9_]*\s*=|#)/.test(line);
    if (keeping || (line.trim() === '' && out.length > 0)) out.push(line);
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** Whether a program imports the helper `name` from `team` (`from team import a, name`, `import team` … `team.name`). */
export function usesHelper(code: string, name: string): boolean {
  const fromImport = new RegExp(`^\\s*from\\s+${TEAM_MODULE}\\s+import\\s+\\(?([^\\n)]*)`, 'gm');
  for (const m of code.matchAll(fromImport)) {
    if (m[1]!.split(',').some((part) => part.trim().split(/\s+as\s+/)[0] === name)) return true;
  }
  return new RegExp(`^\\s*import\\s+${TEAM_MODULE}\\b`, 'm').test(code) && new RegExp(`\\b${TEAM_MODULE}\\.${name}\\b`).test(code);
}

/**
 * A program with the run's helpers it imports written into it, for what outlives the run's work
 * dir (an approved example: a later run may be given it without the definition, or with helpers
 * off): each used helper's source first, its `from team import …` line taken out (an alias kept as
 * `alias = name`). A program that imports no helper, or `import team` as a module, is returned as it is.
 */
export function inlineHelpers(code: string, memory: RunMemory | undefined): string {
  const helpers = uniqueHelpers(memory).filter((h) => usesHelper(code, h.name));
  if (helpers.length === 0) return code;
  const names = new Set(helpers.map((h) => h.name));
  const aliases: string[] = [];
  const lines = code.split('\n').filter((line) => {
    const m = new RegExp(`^\\s*from\\s+${TEAM_MODULE}\\s+import\\s+\\(?([^)\\n]*)\\)?\\s*$`).exec(line);
    if (!m) return true;
    const imported = m[1]!.split(',').map((p) => p.trim().split(/\s+as\s+/)).filter((p) => p[0] !== '');
    if (!imported.every((p) => names.has(p[0]!))) return true;
    for (const [name, alias] of imported) if (alias && alias !== name) aliases.push(`${alias} = ${name}`);
    return false;
  });
  const sources = helpers.map((h) => `# the team's definition as code: ${h.name} (team.py)\n${h.code.trim()}`);
  return [...sources, ...(aliases.length ? [aliases.join('\n')] : []), lines.join('\n')].join('\n\n');
}

/** The first line of the helper's docstring (what it returns), or ''. */
export function helperDoc(code: string): string {
  const m = /^def\s+\w+\s*\([^)]*\)[^:\n]*:\s*\n\s+(?:[rRuU]?)("""|''')\s*([^\n]*?)\s*(?:\1|\n)/m.exec(code);
  return (m?.[2] ?? '').slice(0, 200);
}

/** The helper's signature line (`revenue(df)`). */
export function helperSignature(code: string, name: string): string {
  const m = new RegExp(`^def\\s+${name}\\s*\\(([^)]*)\\)`, 'm').exec(code);
  return `${name}(${(m?.[1] ?? 'df').trim()})`;
}

/**
 * The helpers of a run's definitions as one module (`team.py`), each helper's source in turn (a
 * second helper of a name already there is left out), or undefined when the run has none.
 */
export function teamModule(memory: RunMemory | undefined): InputFile | undefined {
  const helpers = uniqueHelpers(memory);
  if (helpers.length === 0) return undefined;
  const source = ['"""The team\'s definitions as code (code-agent channel memory)."""', ...helpers.map((h) => h.code.trim())].join('\n\n\n');
  return { name: TEAM_FILE, content: Buffer.from(`${source}\n`, 'utf8') };
}

/** The run's helpers, one per name, in the order of its definitions. */
export function uniqueHelpers(memory: RunMemory | undefined): DefinitionHelper[] {
  const seen = new Set<string>();
  const out: DefinitionHelper[] = [];
  for (const d of memory?.definitions ?? []) {
    if (!d.helper || seen.has(d.helper.name)) continue;
    seen.add(d.helper.name);
    out.push(d.helper);
  }
  return out;
}

/**
 * The files an execution of the run gets: its workspace, and `team.py` when the run has helpers and
 * the workspace has no file of that name (a file the team gave wins: the helpers are then not
 * importable, and the run was not told of them: see the helper step).
 */
export function withTeamModule(files: InputFile[] | undefined, memory: RunMemory | undefined): InputFile[] | undefined {
  const module = teamModule(memory);
  if (!module || (files ?? []).some((f) => f.name === TEAM_FILE)) return files;
  return [...(files ?? []), module];
}

/** File kinds the check reads, by extension, with the pandas call that reads them. */
const READERS: [RegExp, string][] = [
  [/\.csv$/i, 'pd.read_csv(name)'],
  [/\.(tsv|tab)$/i, "pd.read_csv(name, sep='\\t')"],
  [/\.xlsx?$/i, 'pd.read_excel(name)'],
  [/\.json$/i, 'pd.read_json(name)'],
  [/\.parquet$/i, 'pd.read_parquet(name)'],
];

/** The files of these names a helper can be checked on (tables pandas reads). */
export function checkableFiles(names: string[]): string[] {
  return names.filter((n) => READERS.some(([re]) => re.test(n)));
}

/**
 * The program that checks a helper in the sandbox, with `team.py` and the run's files in its work
 * dir: it reads each table, calls the helper on it and prints one JSON line: per file, what the
 * helper returned (`kind`: `bool` Series, `number` Series, `scalar`) or the error it raised.
 */
export function helperCheckProgram(name: string, fileNames: string[]): string {
  const reads = fileNames.map((n) => {
    const reader = READERS.find(([re]) => re.test(n))![1];
    return `    (${JSON.stringify(n)}, lambda name: ${reader}),`;
  });
  return `import json, numbers
import pandas as pd
from team import ${name} as helper

def describe(value, rows):
    if isinstance(value, pd.DataFrame):
        return {'error': 'it returned a table (%d columns), not one value per row nor a number' % value.shape[1]}
    if isinstance(value, pd.Series):
        if len(value) != rows:
            return {'error': 'it returned %d values for %d rows' % (len(value), rows)}
        if value.dtype == bool:
            return {'kind': 'bool', 'rows': rows, 'true': int(value.sum())}
        numeric = pd.to_numeric(value, errors='coerce')
        if numeric.notna().sum() == 0 and value.notna().sum() > 0:
            return {'kind': 'values', 'rows': rows}
        if numeric.notna().sum() == 0:
            return {'error': 'every value it returned is missing (NaN)'}
        return {'kind': 'number', 'rows': rows, 'missing': int(numeric.isna().sum())}
    if isinstance(value, bool):
        return {'error': 'it returned one True/False for the whole table'}
    if isinstance(value, numbers.Number):
        return {'kind': 'scalar', 'value': float(value)}
    return {'error': 'it returned a %s, not a Series nor a number' % type(value).__name__}

report = []
for file, read in [
${reads.join('\n')}
]:
    try:
        df = read(file)
    except Exception as e:
        continue
    try:
        report.append(dict(file=file, **describe(helper(df.copy()), len(df))))
    except Exception as e:
        report.append({'file': file, 'error': '%s: %s' % (type(e).__name__, str(e)[:300])})
print(json.dumps(report))
`;
}

/** One file's outcome in the check's report. */
interface CheckedFile {
  file: string;
  kind?: 'bool' | 'number' | 'values' | 'scalar';
  rows?: number;
  true?: number;
  missing?: number;
  value?: number;
  error?: string;
}

/** What a helper's check found: where it works (in words, for the thread), or why it is no helper. */
export type HelperCheck = { ok: true; checked: string } | { ok: false; error: string };

/**
 * Reads the check's report (its stdout) and the program's own failure (stderr, exit code).
 * A helper passes when it returned a sensible value on at least one file.
 */
export function readHelperCheck(stdout: string, stderr: string, success: boolean): HelperCheck {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  let report: CheckedFile[] | undefined;
  try {
    report = JSON.parse(line) as CheckedFile[];
  } catch {
    report = undefined;
  }
  if (!success || !Array.isArray(report)) {
    const err = stderr.trim().split('\n').filter((l) => l.trim() !== '').at(-1) ?? 'it printed no report';
    return { ok: false, error: `importing it failed: ${err.slice(0, 300)}` };
  }
  const good = report.filter((r) => r.kind !== undefined);
  if (good.length === 0) {
    const first = report[0];
    return { ok: false, error: first ? `on ${first.file}: ${first.error ?? 'no value'}` : 'none of the files is a table it could be checked on' };
  }
  return { ok: true, checked: good.map(checkedText).join('; ') };
}

function checkedText(r: CheckedFile): string {
  switch (r.kind) {
    case 'bool':
      return `${r.file}: True for ${r.true} of ${r.rows} rows`;
    case 'number':
      return `${r.file}: a number for each of ${r.rows} rows${r.missing ? ` (${r.missing} missing)` : ''}`;
    case 'values':
      return `${r.file}: a value for each of ${r.rows} rows`;
    default:
      return `${r.file}: ${r.value}`;
  }
}
