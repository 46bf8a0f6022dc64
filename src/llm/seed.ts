/**
 * The seeds of a provider's calls under `llm.seed`: the base for the first call, then one more for
 * each call after it (modulo 2^31). The same run makes the same calls in the same order, so it
 * samples the same replies; two calls of one run with the same prompt (the independent programs)
 * still sample two different replies.
 */
export class SeedSequence {
  private calls = 0;
  /** @param base - `llm.seed`; undefined: no seed is ever given (the backend picks one per call). */
  constructor(private readonly base: number | undefined) {}

  /** The seed of the next call, or undefined when no base was given. */
  next(): number | undefined {
    if (this.base === undefined) return undefined;
    return (this.base + this.calls++) % 2 ** 31;
  }
}
