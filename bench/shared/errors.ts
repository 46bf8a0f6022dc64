/** Errors of the benchmarks (bench/agent-eval, bench/realistic). */

/**
 * A problem with what the user gave (options, dataset, `--merge` files): printed as one line
 * without a stack, exit code 2.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}
