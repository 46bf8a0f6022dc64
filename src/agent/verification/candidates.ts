/**
 * The candidates of a run that ends unconfirmed (DESIGN "Words": candidate): the attempt's answer
 * and the independent programs', grouped by {@link agreeEitherWay} (programs that printed the same
 * answer are one candidate), each with how its program read the request (`../reading/readings.ts`). When
 * the independent programs agree with each other and not with the attempt (two against one), their
 * answer leads. Fewer than two distinct answers: no candidates.
 */
import type { Executor, ExecutionResult } from '../../sandbox/types.js';
import type { Attempt } from '../../history/types.js';
import { CANDIDATE_OUTPUT_CHARS, type Candidate } from '../../history/candidates.js';
import { cutChars } from '../../text/cut.js';
import { agreeEitherWay, answerAgrees, type RunAgreement } from './agreement.js';
import { wholeStdout } from '../run/index.js';
import { readPrograms } from '../reading/index.js';

type Group = Omit<Candidate, 'n' | 'reading' | 'backers' | 'leads'>;

/**
 * The candidates of an agreement step that found no agreement (see the module comment), in the order
 * shown (the leading one first, else the attempt's). Undefined when fewer than two distinct answers.
 * @param results each independent program's execution result, by its 1-based number
 */
export async function makeCandidates(
  executor: Executor,
  attempt: Attempt,
  record: RunAgreement,
  results: ReadonlyMap<number, ExecutionResult>,
  request: string,
  signal?: AbortSignal,
): Promise<Candidate[] | undefined> {
  const own = attempt.result;
  if (!own?.success) return undefined;
  // compared by their whole text; `output` is the cut kept for display (case B2)
  const wholeOf = new Map<Group, string>();
  const first: Group = { from: 'attempt', attempt: attempt.index, programs: [], code: attempt.code, output: cutChars(own.stdout, CANDIDATE_OUTPUT_CHARS), artifacts: own.artifacts };
  const groups: Group[] = [first];
  wholeOf.set(first, await wholeStdout(own));
  record.programs.forEach((p, i) => {
    const result = results.get(i + 1);
    if (!p.code || !result?.success || result.stdout.trim() === '') return;
    const same = groups.find((g) =>
      g.from === 'attempt' ? answerAgrees(wholeOf.get(g)!, result.stdout, request) : agreeEitherWay(wholeOf.get(g)!, result.stdout, request),
    );
    if (same) {
      same.programs.push(i + 1);
      return;
    }
    const group: Group = { from: 'independent', attempt: attempt.index, programs: [i + 1], code: p.code, output: cutChars(result.stdout, CANDIDATE_OUTPUT_CHARS), artifacts: result.artifacts };
    groups.push(group);
    wholeOf.set(group, result.stdout);
  });
  if (groups.length < 2) return undefined;
  const backers = (g: Group) => g.programs.length + (g.from === 'attempt' ? 1 : 0);
  const leader = groups.find((g) => g.from === 'independent' && g.programs.length >= 2 && backers(g) > backers(groups[0]!));
  const ordered = leader ? [leader, ...groups.filter((g) => g !== leader)] : groups;
  const readings = await readPrograms(executor, ordered.map((g) => g.code), signal);
  return ordered.map((g, i) => ({ ...g, n: i + 1, reading: readings[i]!, backers: backers(g), ...(g === leader ? { leads: true } : {}) }));
}
