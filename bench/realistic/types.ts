/** The shape of a realistic request and of its independent checker. */
import type { Artifact, Executor, InputFile } from '../../src/sandbox/types.js';

/** The five kinds of request the set covers. */
export type RequestKind = 'data' | 'plot' | 'text' | 'arithmetic' | 'date';

/** What a checker looks at: the output of the attempt the user is shown last. */
export interface CheckInput {
  /** The program's stdout ('' when it never ran). */
  stdout: string;
  /** Files the program wrote, as kept on the host (`path` is readable). */
  artifacts: readonly Artifact[];
}

/** What a checker may use besides the output: the sandbox, to inspect a PNG with matplotlib. */
export interface CheckContext {
  executor: Executor;
}

/** A checker's decision; `reason` says what was wrong (or what was found), in one line. */
export interface Verdict {
  pass: boolean;
  reason: string;
}

/** One request of the set. */
export interface RealisticRequest {
  /** Stable id, e.g. `first-20-primes`; also the reference programs' file names. */
  id: string;
  kind: RequestKind;
  /** The requirement, as a chat user would type it. */
  requirement: string;
  /** Files attached to the message (placed in the sandbox work dir). */
  inputFiles?: InputFile[];
  /**
   * Decides pass or fail from the output alone, never from the run's status. Expected values are
   * hard-coded from an independent computation (see the comment at each request) or computed here.
   */
  check(output: CheckInput, ctx: CheckContext): Promise<Verdict>;
}

/** A passing verdict. */
export const ok = (reason = 'as expected'): Verdict => ({ pass: true, reason });
/** A failing verdict. */
export const bad = (reason: string): Verdict => ({ pass: false, reason });
/** Combines verdicts: the first failure, else a pass. */
export function all(...verdicts: Verdict[]): Verdict {
  return verdicts.find((v) => !v.pass) ?? ok(verdicts.map((v) => v.reason).join('; '));
}
/** An attached text file. */
export const file = (name: string, content: string): InputFile => ({ name, content: Buffer.from(content, 'utf8') });
