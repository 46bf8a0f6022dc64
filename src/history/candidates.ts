/**
 * What a run keeps of its candidates and of what people said of it (DESIGN "Words": candidate,
 * settle): the candidate answers of a run that ended unconfirmed, the person's choice among them,
 * and the 👍/👎 of people in the channel. Types only, low in the layers: the agent writes them
 * (`src/agent/verification/candidates.ts`, `src/agent/loop/settle.ts`), chat and the terminal show them.
 */
import type { Artifact } from './execution.js';

/** One answer to a run: an attempt's output or the independent programs', with how its program read the request. */
export interface Candidate {
  /** 1-based, in the order shown ("candidate 1"); the first leads (see {@link Candidate.leads}). */
  n: number;
  /** `attempt`: the run's attempt printed it; `independent`: only independent programs did. */
  from: 'attempt' | 'independent';
  /** The attempt it is (from `attempt`) or was compared with (from `independent`). */
  attempt: number;
  /** The independent programs (1-based, in the order made) that printed this answer too. */
  programs: number[];
  /** The program that printed it (the attempt's, or the first independent program's). */
  code: string;
  /** What it printed (bounded: {@link CANDIDATE_OUTPUT_CHARS}). */
  output: string;
  /** The files it wrote, kept on the host. */
  artifacts: Artifact[];
  /** One line: how its program read the request (columns, rows kept, grouping, computation). */
  reading: string;
  /** How many programs printed this answer (the attempt counts as one). */
  backers: number;
  /** It leads: the independent programs agree on it with each other and not with the attempt (two against one). */
  leads?: boolean;
}

/** Longest output kept per candidate, in characters. */
export const CANDIDATE_OUTPUT_CHARS = 4000;

/** Who did something to a run, as the platform named them. */
export interface Person {
  /** The platform's user id (or the terminal's user name). */
  id: string;
  /** A display name, when the platform gave one (shown, never used to ping). */
  name?: string;
}

/** A person's choice among a run's candidates. */
export interface RunSettlement {
  by: Person;
  /** The candidate chosen (its `n`), or `neither`: none is right (a reply is asked for). */
  choice: number | 'neither';
  /** ISO 8601. */
  at: string;
}

/** A person's 👍 (the answer is right: approved) or 👎 (something is wrong: a reply is asked for). */
export interface RunApproval {
  by: Person;
  verdict: 'up' | 'down';
  /** The attempt whose answer was judged. */
  attempt: number;
  /** ISO 8601. */
  at: string;
}
