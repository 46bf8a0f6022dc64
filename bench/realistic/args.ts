/** Command-line options of bench/realistic (the shared ones are in `../shared/args.ts`). */
import { COMMON_OPTIONS, commonArgs, parseOptions, type CommonArgs } from '../shared/args.js';
import { UsageError } from '../shared/errors.js';
import type { VerifyMode } from './evaluate.js';
import { REQUESTS } from './requests.js';

/** Parsed options. */
export interface RealisticArgs extends CommonArgs {
  /** The verify mode compared with `off` (`off` alone when it is `off`). */
  verify: VerifyMode;
  /** Run max_retries 0 as its own pass instead of reading it off the first attempt. */
  separate: boolean;
}

/** The usage text printed with a usage error and for `--help`. */
export const USAGE = `node dist/bench/realistic.js [--verify checks|review|both|off] [--retries 3] [--limit N] [--offset N]
  [--separate] [--model-path F.gguf | --base-url URL --model NAME [--api-key K]] [--threads N]
  [--context-size N] [--max-tokens N] [--timeout-s S] [--json out.json]
node dist/bench/realistic.js --merge shard1.json shard2.json … [--json all.json]`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  verify: { type: 'string', default: 'checks' },
  separate: { type: 'boolean', default: false },
} as const;

const MODES: readonly VerifyMode[] = ['off', 'checks', 'review', 'both'];

/** Parses argv (without node and script). */
export function parseRealisticArgs(argv: string[]): RealisticArgs {
  const parsed = parseOptions(argv, OPTIONS, USAGE);
  const common = commonArgs(parsed, USAGE, REQUESTS.length);
  const verify = parsed.values.verify as VerifyMode;
  if (!MODES.includes(verify)) throw new UsageError(`--verify: one of ${MODES.join(', ')}, got ${verify}`);
  return { ...common, verify, separate: parsed.values.separate ?? false };
}
