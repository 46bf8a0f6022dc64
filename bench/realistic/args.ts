/** Command-line options of bench/realistic (the shared ones are in `../shared/args.ts`). */
import { COMMON_OPTIONS, commonArgs, parseOptions, type CommonArgs } from '../shared/args.js';
import { REQUESTS } from './requests.js';

/** Parsed options; `verify` is the mode compared with `off` (`off` alone when it is `off`). */
export interface RealisticArgs extends CommonArgs {
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
  separate: { type: 'boolean', default: false },
} as const;

/** Parses argv (without node and script). */
export function parseRealisticArgs(argv: string[]): RealisticArgs {
  const parsed = parseOptions(argv, OPTIONS, USAGE);
  const common = commonArgs(parsed, USAGE, REQUESTS.length);
  return { ...common, separate: parsed.values.separate ?? false };
}
