/** Command-line options of bench/agent-eval (the shared ones are in `../shared/args.ts`). */
import { COMMON_OPTIONS, commonArgs, parseOptions, type CommonArgs } from '../shared/args.js';
import { UsageError } from '../shared/errors.js';

/** Parsed options. */
export interface EvalArgs extends CommonArgs {
  dataset?: string;
  /** Run max_retries 0 as its own pass instead of reading it off the first attempt. */
  separate: boolean;
  /** `show` (default) or `assert`: how the requirement asks for the docstring's examples. */
  examples: 'show' | 'assert';
}

export const USAGE = `node dist/bench/agent-eval.js [--limit N] [--offset N] [--retries 3] [--separate]
  [--model-path F.gguf | --base-url URL --model NAME [--api-key K]] [--threads N] [--context-size N]
  [--max-tokens N] [--timeout-s S] [--dataset HumanEval.jsonl.gz] [--json out.json] [--examples show|assert]
  [--verify checks|review|both|off]
node dist/bench/agent-eval.js --merge shard1.json shard2.json … [--json all.json]`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  dataset: { type: 'string' },
  separate: { type: 'boolean', default: false },
  examples: { type: 'string', default: 'show' },
} as const;

/** Parses argv (without node and script). */
export function parseEvalArgs(argv: string[]): EvalArgs {
  const parsed = parseOptions(argv, OPTIONS, USAGE);
  const common = commonArgs(parsed, USAGE, 164);
  const { values } = parsed;
  if (values.examples !== 'show' && values.examples !== 'assert') throw new UsageError('--examples: show or assert');
  return {
    ...common,
    dataset: values.dataset,
    separate: values.separate ?? false,
    examples: values.examples === 'assert' ? 'assert' : 'show',
  };
}
