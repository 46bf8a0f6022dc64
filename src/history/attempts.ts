/** Facts about a run's attempts that every view of a run tells the same way. */
import type { Run } from './types.js';

/**
 * How many attempts a run made: its attempts without the copy of an earlier one kept as its answer
 * (`keptFrom`), the candidate a person chose (`settledFrom`) and the one two independent programs agreed on (`adoptedFrom`), which are not new versions of the code. What users are told ("after 3 attempts").
 */
export function madeAttempts(run: Pick<Run, 'attempts'>): number {
  return run.attempts.filter((a) => a.keptFrom === undefined && a.settledFrom === undefined && a.adoptedFrom === undefined).length;
}
