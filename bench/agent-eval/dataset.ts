/**
 * HumanEval problems (task_id, prompt, canonical_solution, test, entry_point) from the
 * gzipped JSONL of the shared datasets folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { resolve } from 'node:path';

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
 * Where the dataset is looked for when no path is given (relative to the repo root, where the
 * bench runs): `$CODE_AGENT_HUMANEVAL`, else the steering repo's `shared/` beside this checkout.
 */
export const DATASET_CANDIDATES = [
  ...(process.env.CODE_AGENT_HUMANEVAL ? [process.env.CODE_AGENT_HUMANEVAL] : []),
  '../shared/datasets/humaneval/HumanEval.jsonl.gz',
];

/**
 * Reads the problems.
 * @throws {Error} naming the paths tried when the file is missing.
 */
export function loadProblems(path?: string): Problem[] {
  const file = path ? resolve(path) : DATASET_CANDIDATES.map((p) => resolve(p)).find((p) => existsSync(p));
  if (!file || !existsSync(file)) {
    throw new Error(`HumanEval.jsonl.gz not found (tried ${path ?? DATASET_CANDIDATES.join(', ')}); pass --dataset`);
  }
  const raw = readFileSync(file);
  const text = file.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Problem);
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
