/**
 * Parts of the Run record that other layers produce and the history keeps: the LLM's token counts,
 * the checks derived for a run, the agreement of independent programs, and the profile of its input
 * files. Their types live here, low, so that the store never imports the agent, the LLM or the
 * profiler (each of those re-exports its type from here).
 */

/** Token counts of one completion. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** The checks of a run, as stored in its history. */
export interface RunChecks {
  /** Python source handed to the sandbox; empty when nothing could be checked. */
  code: string;
  /** The `assert` lines of `code`, as written (what the thread shows). */
  asserts: string[];
  /** Tokens of the LLM call(s) that wrote them. */
  usage: TokenUsage;
  /** Asserts of the previous derivation that are gone from this one (after user feedback). */
  dropped?: string[];
  /** Set when these checks were written again because the first ones were broken: what was wrong. */
  repairOf?: string;
  /** True when they came in the code's reply (a ```checks block, see `src/agent/verification/reply-checks.ts`), not from a call of their own. */
  fromReply?: boolean;
  /**
   * The asserts that compare with a literal the request does not state (guesses, see
   * `src/agent/verification/guesses.ts`); absent until they were read, empty when none is a guess.
   */
  guesses?: GuessedCheck[];
}

/** A check whose compared literal the request does not state: the check writer's own answer, not evidence. */
export interface GuessedCheck {
  /** The assert's source, as the sandbox runner reports it. */
  check: string;
  /** The literal it made up, e.g. `10` or `[255, 511]` (at most 200 characters). */
  constant: string;
}

/** What the agreement step did for a run, as kept in its history. */
export interface RunAgreement {
  /** `agreed` (an independent program printed the same answer), `majority` (a third program sided with the first), `disagreed`, `inconclusive` (no independent program ran). */
  outcome: 'agreed' | 'majority' | 'disagreed' | 'inconclusive';
  /** The attempt whose answer was compared. */
  attempt: number;
  /** Each independent program: its code, its output (bounded) or failure, and whether it agreed with the attempt. */
  programs: { code: string; output?: string; failure?: string; agreed: boolean }[];
  /** Tokens the independent programs cost. */
  usage: TokenUsage;
  /**
   * Two against one: the independent programs agreed with each other and not with the attempt, and
   * the next attempt (`attempt`) was told their answer (`output`) to print it in the requested form.
   */
  adopt?: { attempt: number; output: string };
}

/** What is known of one input file. */
export interface FileProfile {
  /** The name the program finds in its work dir. */
  name: string;
  /** One line, e.g. `object with key "orders": 1,204 records {id, customer{country}}`. */
  summary: string;
  /** A few lines for the model (format, columns or keys and types, sizes, sample rows). */
  text: string;
  /** Tables only (CSV/TSV, a workbook's first sheet): the first rows as cells (at most 6 rows × 12 cells of 40 characters). */
  rows?: string[][];
  /**
   * Tables and JSON records: each column (or record key) with its type, for the agent to say what
   * the data holds under a name a failed program used (at most {@link MAX_FIELDS}).
   */
  fields?: FieldProfile[];
  /** Set for a table without a header row: its fields are named by position (`df[0]`…). */
  headerless?: true;
  /** Workbooks: the sheet names, in order (at most 10). */
  sheets?: string[];
}

/** One column of a table, or one key of JSON records, as the profiler saw it. */
export interface FieldProfile {
  /** The header's text (at most 40 characters), or the 0-based position in a table without a header. */
  name: string | number;
  /**
   * What its values look like: `int`, `float`, `date` (dates written as text: a plain read gives
   * text), `str`, `bool`, `empty`; for JSON values `list`, `dict`, `null`, `mixed`.
   */
  type: string;
  /** A first value (at most 40 characters). */
  example?: string;
  /** How to read it when a plain read gets it wrong (e.g. `pandas.to_datetime(df['d'], utc=True)`), as the profile says. */
  note?: string;
}

/** The profile of a run's input files, as kept with the run. */
export interface InputProfile {
  files: FileProfile[];
}
