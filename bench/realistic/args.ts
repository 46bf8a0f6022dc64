/** Command-line options of bench/realistic (the shared ones are in `../shared/args.ts`). */
import { COMMON_OPTIONS, commonArgs, parseOptions, type CommonArgs } from '../shared/args.js';
import { UsageError } from '../shared/errors.js';
import { KIND_SELECTIONS, REQUESTS, type KindSelection } from './requests.js';

/** Parsed options; `verify` is the mode compared with `off` (`off` alone when it is `off`). */
export interface RealisticArgs extends CommonArgs {
  /** Run max_retries 0 as its own pass instead of reading it off the first attempt. */
  separate: boolean;
  /** Which requests run (`--offset`/`--limit` count within them): `all`, `classic`, `files` or one kind. */
  kind: KindSelection;
}

/** The usage text printed with a usage error and for `--help`. */
export const USAGE = `node dist/bench/realistic.js [--verify checks|review|both|off] [--retries 3] [--kind all|classic|files|data|…] [--limit N] [--offset N]
  [--separate] [--model-path F.gguf | --base-url URL --model NAME [--api-key K]] [--threads N]
  [--context-size N] [--max-tokens N] [--timeout-s S] [--json out.json]
node dist/bench/realistic.js --merge shard1.json shard2.json … [--json all.json]`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  separate: { type: 'boolean', default: false },
  kind: { type: 'string', default: 'all' },
} as const;

/**
 * Parses argv (without node and script).
 * @throws {UsageError} for an unknown option or `--kind`, or a bad number.
 */
export function parseRealisticArgs(argv: string[]): RealisticArgs {
  const parsed = parseOptions(argv, OPTIONS, USAGE);
  const common = commonArgs(parsed, USAGE, REQUESTS.length);
  const kind = (parsed.values.kind ?? 'all') as KindSelection;
  if (!KIND_SELECTIONS.includes(kind)) throw new UsageError(`--kind: one of ${KIND_SELECTIONS.join(', ')}, got ${kind}`);
  return { ...common, separate: parsed.values.separate ?? false, kind };
}
