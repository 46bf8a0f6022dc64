/** What is wrong with a configuration: the error every config problem is reported by. */

/** One bad key of a configuration: its dotted path (`sandbox.timeout_s`, `(root)`) and what is wrong with it. */
export interface ConfigProblem {
  path: string;
  problem: string;
}

/**
 * The configuration cannot be used; `message` names the file and the key path (one line per bad
 * key); `problems` lists the bad keys one by one when the file was read but its keys are invalid.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    message: string,
    readonly problems: ConfigProblem[] = [],
  ) {
    super(message);
  }
}
/** A request that cannot be accepted (empty, too long…); nothing was run and nothing was stored. */
export class InputError extends Error {
  override name = 'InputError';
}
