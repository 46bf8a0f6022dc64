/**
 * HumanEval problems (task_id, prompt, canonical_solution, test, entry_point) from a gzipped
 * JSONL file: by default the copy kept in `bench/agent-eval/data/`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../shared/errors.js';

/** One HumanEval problem. */
export interface Problem {
  task_id: string;
  prompt: string;
  canonical_solution: string;
  /** Defines `check(candidate)`. */
  test: string;
  entry_point: string;
}

/**
 * The copy kept in the repo (`bench/agent-eval/data/`), found from this module whether it runs
 * from source (`bench/agent-eval/`) or compiled (`dist/bench/agent-eval/`; the build does not copy it).
 */
const VENDORED = ['./data/HumanEval.jsonl.gz', '../../../bench/agent-eval/data/HumanEval.jsonl.gz'].map((rel) =>
  fileURLToPath(new URL(rel, import.meta.url)),
);

/**
 * Reads the problems from `path`, else `$CODE_AGENT_HUMANEVAL`, else the repo's own copy.
 * @param path - a `.jsonl.gz` or `.jsonl` file, relative to the current directory
 * @throws {UsageError} naming the absolute path tried when the file is missing or not JSONL.
 */
export function loadProblems(path: string | undefined = process.env.CODE_AGENT_HUMANEVAL || undefined): Problem[] {
  const file = path ? resolve(path) : VENDORED.find((p) => existsSync(p));
  if (!file || !existsSync(file)) {
    throw new UsageError(
      path
        ? `HumanEval dataset not found at ${file} (from --dataset or CODE_AGENT_HUMANEVAL)`
        : `HumanEval dataset not found in the repo (tried ${VENDORED.join(', ')}); pass --dataset FILE`,
    );
  }
  const raw = readFileSync(file);
  const lines = (file.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8')).split('\n');
  return lines
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, n }) => {
      try {
        return JSON.parse(line) as Problem;
      } catch (err) {
        throw new UsageError(`${file}:${n}: not a JSON line (${(err as Error).message})`);
      }
    });
}

/** How the requirement asks for the examples: shown (printed), or checked with `assert`. */
export type ExampleStyle = 'show' | 'assert';

/**
 * The requirement given to the agent for a problem. `show` (the default, the figure) asks to show
 * the function working on the docstring's examples; `assert` asks to check them with assert
 * statements, so a wrong result fails the run and the fix loop can see it.
 */
export function requirementOf(problem: Problem, style: ExampleStyle = 'show'): string {
  const ask =
    style === 'assert'
      ? "Complete the function and check it on the docstring's examples with assert statements."
      : "Complete the function and show it working on the docstring's examples.";
  return `${problem.prompt.trimEnd()}\n\n${ask}`;
}

/** The program that runs the hidden tests on the agent's final code. */
export function checkProgram(problem: Problem, code: string): string {
  return `${code}\n\n${problem.test}\n\ncheck(${problem.entry_point})\n`;
}
