/**
 * What a tick asks of the team programs: run the schedule's program with its parameters, with no
 * LLM call, as a run of the conversation (stored, with its workspace), without posting anything
 * (the gates decide whether it is posted). The runner of team programs (src/programs) implements
 * it; tests may give one of their own.
 */
import type { Run } from '../history/types.js';
import type { Schedule } from '../history/programs.js';

/** One file a tick's program was given: its name and the SHA-256 of its content (hex). */
export interface GivenFile {
  name: string;
  hash: string;
}

/** A tick's program run, stored but not posted. */
export interface TickExecution {
  /** The run made for the tick (its last attempt ran the program); `status` `failed` when the program failed. */
  run: Run;
  /** The files the program was given. */
  inputs: GivenFile[];
  /** The line naming the program, e.g. "team program `revenue` v3, approved by Alice on 2025-03-01". */
  mark: string;
}

/** Why a tick's program could not run at all (removed, files that no longer fit): said as the tick's failure. */
export interface TickRefusal {
  refused: string;
}

/** Runs a schedule's program for one tick. */
export interface TickRunner {
  /**
   * Runs the program of `schedule` with its parameters, as run `runId` of its conversation (the
   * same id for every try of one tick, so a retried tick replaces its run instead of adding one).
   * Never throws for what the program does; throws only when the store or the sandbox fails.
   */
  run(schedule: Schedule, runId: string): Promise<TickExecution | TickRefusal>;
}
