/** What the check writer reads (`checks.ts`): the request so far, with the run's definitions and input profile. */
import type { Run } from '../../history/types.js';
import { profileSection } from '../../data/profile.js';
import { definitionsSection } from '../../memory/prompt.js';
import { requestSoFar } from './verdict.js';

/** What the check writer reads: the request so far, the channel's definitions given to the run and, on input files, their profile. */
export function checksRequest(run: Run): string {
  const section = run.inputProfile ? profileSection(run.inputProfile) : '';
  return [requestSoFar(run), definitionsSection(run.memory), section].filter((t) => t !== '').join('\n\n');
}
