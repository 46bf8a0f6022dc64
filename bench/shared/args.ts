/**
 * Command-line options both benchmarks share (which model, how many problems, fix-loop budget,
 * `--json`, `--merge`), parsed with node:util parseArgs; each bench adds its own options.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.js';
import type { VerifyMode } from '../../src/agent/loop/index.js';

/** The values of `--verify` (`agent.verify`). */
export const VERIFY_MODES: readonly VerifyMode[] = ['off', 'checks', 'review', 'both'];

/** Options shared by every bench (parseArgs config); `limit` has no default: each bench sets its own. */
export const COMMON_OPTIONS = {
  limit: { type: 'string' },
  offset: { type: 'string', default: '0' },
  retries: { type: 'string', default: '3' },
  'model-path': { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  threads: { type: 'string', default: '0' },
  seed: { type: 'string' },
  'context-size': { type: 'string', default: '4096' },
  'max-tokens': { type: 'string', default: '768' },
  'timeout-s': { type: 'string', default: '10' },
  json: { type: 'string' },
  verify: { type: 'string', default: 'checks' },
  merge: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

/** Which model answers: a local GGUF file (default: the test model) or an OpenAI-compatible server. */
export interface LlmArgs {
  modelPath?: string;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  /** llama.cpp threads (0: its default). */
  threads: number;
  /** The seed of sampled calls (`llm.seed`): the same requests sample the same replies. Unset: a new one each call. */
  seed?: number;
  /** Context window of the local model, in tokens. */
  contextSize: number;
  /** Longest completion, in tokens. */
  maxTokens: number;
}

/** The shared options, parsed. */
export interface CommonArgs extends LlmArgs {
  limit: number;
  offset: number;
  /** Fix-loop budget compared against 0. */
  retries: number;
  /** Wall and CPU time limit of one execution in the sandbox, in s. */
  timeoutS: number;
  /** Where the summary goes, rewritten after every problem. */
  json?: string;
  /** How the agent verifies results (`agent.verify`). */
  verify: VerifyMode;
  /** `--merge a.json b.json …`: print the report of these shard summaries instead of running. */
  merge: string[];
}

/** Loose view of parseArgs values, enough to read the shared options. */
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/**
 * node:util parseArgs with positionals allowed, its errors (unknown option, missing value) as usage
 * errors; `--help` prints `usage` and exits 0.
 */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, usage: string) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options, strict: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${usage}`);
  }
  if ((parsed.values as Values).help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return parsed;
}

/** A whole number ≥ 0 from an option's text. @throws {UsageError} naming the option. */
export function wholeNumber(v: unknown, name: string): number {
  const x = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(x) || x < 0) throw new UsageError(`--${name}: expected a whole number, got ${String(v)}`);
  return x;
}

/**
 * Reads the shared options from parseArgs' result.
 * @param defaultLimit - problems run when `--limit` is not given (the whole set).
 * @throws {UsageError} for `--merge` without files, a stray positional or a bad number.
 */
export function commonArgs(parsed: { values: object; positionals: string[] }, usage: string, defaultLimit: number): CommonArgs {
  const values = parsed.values as Values;
  const { positionals } = parsed;
  if (values.merge && !positionals.length) throw new UsageError(`--merge: give the --json files of the shards\n${usage}`);
  if (positionals.length && !values.merge) throw new UsageError(`unexpected argument ${positionals[0]}\n${usage}`);
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const verify = str('verify') as VerifyMode;
  if (!VERIFY_MODES.includes(verify)) throw new UsageError(`--verify: one of ${VERIFY_MODES.join(', ')}, got ${verify}`);
  return {
    limit: values.limit === undefined ? defaultLimit : wholeNumber(values.limit, 'limit'),
    offset: wholeNumber(values.offset, 'offset'),
    retries: wholeNumber(values.retries, 'retries'),
    modelPath: str('model-path'),
    baseUrl: str('base-url'),
    model: str('model'),
    apiKey: str('api-key') ?? process.env.OPENAI_API_KEY,
    threads: wholeNumber(values.threads, 'threads'),
    seed: values.seed === undefined ? undefined : wholeNumber(values.seed, 'seed'),
    contextSize: wholeNumber(values['context-size'], 'context-size'),
    maxTokens: wholeNumber(values['max-tokens'], 'max-tokens'),
    timeoutS: wholeNumber(values['timeout-s'], 'timeout-s'),
    json: str('json'),
    verify,
    merge: values.merge ? positionals : [],
  };
}
