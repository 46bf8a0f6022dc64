/** Command-line options of bench/agent-eval. */
import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';
import type { VerifyMode } from '../../src/agent/agent.js';

const VERIFY_MODES: readonly VerifyMode[] = ['off', 'checks', 'review', 'both'];

/** Parsed options. */
export interface EvalArgs {
  limit: number;
  offset: number;
  dataset?: string;
  /** Fix-loop budget compared against 0. */
  retries: number;
  /** Run max_retries 0 as its own pass instead of reading it off the first attempt. */
  separate: boolean;
  modelPath?: string;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  threads: number;
  contextSize: number;
  maxTokens: number;
  timeoutS: number;
  /** Where the summary goes, rewritten after every problem. */
  json?: string;
  /** `show` (default) or `assert`: how the requirement asks for the docstring's examples. */
  examples: 'show' | 'assert';
  /** How the agent verifies results (`agent.verify`). */
  verify: VerifyMode;
  /** `--merge a.json b.json …`: print the report of these shard summaries instead of running. */
  merge: string[];
}

export const USAGE = `node dist/bench/agent-eval.js [--limit N] [--offset N] [--retries 3] [--separate]
  [--model-path F.gguf | --base-url URL --model NAME [--api-key K]] [--threads N] [--context-size N]
  [--max-tokens N] [--timeout-s S] [--dataset HumanEval.jsonl.gz] [--json out.json] [--examples show|assert]
  [--verify off|checks|review|both]
node dist/bench/agent-eval.js --merge shard1.json shard2.json … [--json all.json]`;


const OPTIONS = {
  limit: { type: 'string', default: '164' },
  offset: { type: 'string', default: '0' },
  dataset: { type: 'string' },
  retries: { type: 'string', default: '3' },
  separate: { type: 'boolean', default: false },
  'model-path': { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  threads: { type: 'string', default: '0' },
  'context-size': { type: 'string', default: '4096' },
  'max-tokens': { type: 'string', default: '768' },
  'timeout-s': { type: 'string', default: '10' },
  json: { type: 'string' },
  examples: { type: 'string', default: 'show' },
  verify: { type: 'string', default: 'checks' },
  merge: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

/** node:util parseArgs, with its errors (unknown option, missing value) as usage errors. */
function parseOptions(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
}

/** Parses argv (without node and script). */
export function parseEvalArgs(argv: string[]): EvalArgs {
  const { values, positionals } = parseOptions(argv);
  if (values.merge && !positionals.length) throw new UsageError(`--merge: give the --json files of the shards\n${USAGE}`);
  if (positionals.length && !values.merge) throw new UsageError(`unexpected argument ${positionals[0]}\n${USAGE}`);
  if (values.examples !== 'show' && values.examples !== 'assert') throw new UsageError('--examples: show or assert');
  if (!VERIFY_MODES.includes(values.verify as VerifyMode)) throw new UsageError(`--verify: ${VERIFY_MODES.join(', ')}`);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const n = (v: string | undefined, name: string) => {
    const x = Number(v);
    if (!Number.isInteger(x) || x < 0) throw new UsageError(`--${name}: expected a whole number, got ${v}`);
    return x;
  };
  return {
    limit: n(values.limit, 'limit'),
    offset: n(values.offset, 'offset'),
    dataset: values.dataset,
    retries: n(values.retries, 'retries'),
    separate: values.separate ?? false,
    modelPath: values['model-path'],
    baseUrl: values['base-url'],
    model: values.model,
    apiKey: values['api-key'] ?? process.env.OPENAI_API_KEY,
    threads: n(values.threads, 'threads'),
    contextSize: n(values['context-size'], 'context-size'),
    maxTokens: n(values['max-tokens'], 'max-tokens'),
    timeoutS: n(values['timeout-s'], 'timeout-s'),
    json: values.json,
    examples: values.examples === 'assert' ? 'assert' : 'show',
    verify: values.verify as VerifyMode,
    merge: values.merge ? positionals : [],
  };
}
