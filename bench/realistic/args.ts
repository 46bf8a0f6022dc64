/** Command-line options of bench/realistic (the shared ones are in `../shared/args.ts`). */
import { COMMON_OPTIONS, commonArgs, parseOptions, type CommonArgs } from '../shared/args.js';
import { UsageError } from '../shared/errors.js';
import { ALL_REQUESTS, KIND_SELECTIONS, type KindSelection } from './requests.js';

/** Parsed options; `verify` is the mode compared with `off` (`off` alone when it is `off`). */
export interface RealisticArgs extends CommonArgs {
  /** Run max_retries 0 as its own pass instead of reading it off the first attempt. */
  separate: boolean;
  /** Which requests run (`--offset`/`--limit` count within them): `all`, `classic`, `files` or one kind. */
  kind: KindSelection;
  /** `--ids a,b`: only these requests (a run: within `--kind`, before `--offset`/`--limit`; `--merge`: only their results). */
  ids?: string[];
  /** `--skip-off`: run only the `--verify` mode, not `off` beside it. */
  skipOff: boolean;
  /** `--baseline b.json` with `--merge`: the speed figures against that summary's (the same requests on another build). */
  baseline?: string;
  /** `--adopt`: two against one, the next attempt is told the independent programs' answer (AgentOptions.adoptTwoAgainstOne). */
  adopt: boolean;
  /**
   * `--run-timeout-s S`: the agent's run deadline and time budget (`agent.run_timeout_s`; 0: none);
   * default the agent's own. With none, how many attempts a run gets does not depend on the machine's load.
   */
  runTimeoutS?: number;
}

/** The usage text printed with a usage error and for `--help`. */
export const USAGE = `node dist/bench/realistic.js [--verify checks|review|both|off] [--retries 3] [--kind all|classic|files|methods|data|…] [--limit N] [--offset N]
  [--separate] [--skip-off] [--model-path F.gguf | --base-url URL --model NAME [--api-key K]] [--threads N] [--seed N]
  [--context-size N] [--max-tokens N] [--timeout-s S] [--run-timeout-s S] [--ids ID,ID…] [--adopt] [--json out.json]
node dist/bench/realistic.js --merge shard1.json shard2.json … [--ids ID,ID…] [--json all.json] [--baseline before.json]`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  separate: { type: 'boolean', default: false },
  kind: { type: 'string', default: 'all' },
  ids: { type: 'string' },
  'skip-off': { type: 'boolean', default: false },
  baseline: { type: 'string' },
  adopt: { type: 'boolean', default: false },
  'run-timeout-s': { type: 'string' },
} as const;

/**
 * Parses argv (without node and script).
 * @throws {UsageError} for an unknown option, `--kind` or request id in `--ids`, or a bad number.
 */
export function parseRealisticArgs(argv: string[]): RealisticArgs {
  const parsed = parseOptions(argv, OPTIONS, USAGE);
  const common = commonArgs(parsed, USAGE, ALL_REQUESTS.length);
  const kind = (parsed.values.kind ?? 'all') as KindSelection;
  if (!KIND_SELECTIONS.includes(kind)) throw new UsageError(`--kind: one of ${KIND_SELECTIONS.join(', ')}, got ${kind}`);
  const ids = parsed.values.ids === undefined ? undefined : parsed.values.ids.split(',').map((id) => id.trim()).filter((id) => id !== '');
  const unknown = ids?.find((id) => !ALL_REQUESTS.some((r) => r.id === id));
  if (unknown !== undefined) throw new UsageError(`--ids: no request has the id ${unknown}`);
  if (ids?.length === 0) throw new UsageError('--ids: give request ids separated by commas');
  const runTimeout = parsed.values['run-timeout-s'];
  if (runTimeout !== undefined && !/^\d+$/.test(runTimeout)) throw new UsageError(`--run-timeout-s: a whole number of seconds (0: none), got ${runTimeout}`);
  return { ...common, ...(runTimeout !== undefined ? { runTimeoutS: Number(runTimeout) } : {}), separate: parsed.values.separate ?? false, kind, ...(ids ? { ids } : {}), skipOff: parsed.values['skip-off'] ?? false, ...(parsed.values.baseline ? { baseline: parsed.values.baseline } : {}), adopt: parsed.values.adopt ?? false };
}
