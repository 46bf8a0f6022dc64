/**
 * Settling a verdict by agreement when the checks cannot pin the answer (independent programs:
 * `agreement-step.ts`), and what the attempt that adopts two independent programs' answer is told.
 * The loop's steps call these; they store nothing themselves.
 */
import type { AgentTools } from '../../tools/types.js';
import type { ExecutionResult, Executor } from '../../sandbox/types.js';
import { makeCandidates } from './candidates.js';
import type { LlmProvider } from '../../llm/types.js';
import type { Attempt, Run } from '../../history/types.js';
import { emit, type CallOptions, type VerifyMode, wholeStdout } from '../run/index.js';
import type { Verdict } from './verdict.js';
import { requestSoFar } from './verdict.js';
import { guessesOnly, needsAgreement, programLines, seekAgreement, AGREEMENT_OUTPUT_CHARS } from './agreement-step.js';
import { boundLine, cutChars } from '../../text/cut.js';
import { MAX_INDEPENDENT, agreeEitherWay, answerAgrees, partialAnswer, type RunAgreement } from './agreement.js';
import type { WorkspaceManifest } from '../../history/workspace.js';
import type { UnmetRequirements } from './agreement-step.js';

/**
 * With checks on (`checks`/`both`), when an attempt needs agreement (see `needsAgreement`), asks independent programs
 * and turns the outcome into the verdict: confirmed when they agree (or the majority does); else
 * `final` (no further attempt: the model that wrote both cannot say which is right) with both
 * answers in the reason. An attempt whose only disagreement is a check that guessed its constant
 * (`guesses.ts`) is confirmed when an independent program prints the same answer (the check is set
 * aside: `attempt.setAside`, and the agreement event names it); without input files, one
 * independent program is asked per turn, and when it does not print this answer the check stands
 * and attempts go on (`options.independentAnswers` keeps what the turn's programs printed, for
 * later attempts). Other verdicts pass through unchanged. With `noTime` (the call's time budget
 * has no room for an independent program), the answer is not cross-checked: final, with that reason.
 */
export async function settleByAgreement(
  deps: { llm: LlmProvider; executor: Executor; artifactRoot: string; verify: VerifyMode; system?: string; tools?: AgentTools; noTime?: string; workspace?: WorkspaceManifest; requirements?: UnmetRequirements },
  run: Run,
  attempt: Attempt,
  verdict: Verdict,
  options: CallOptions & { independentAnswers?: string[] },
): Promise<{ verdict: Verdict; final: boolean; adopt?: string }> {
  const fromReview = verdict.kind === 'ran' && verdict.defect !== undefined;
  const adopted = run.agreement?.adopt;
  if (adopted && adopted.attempt === attempt.index && attempt.result?.success) {
    // the attempt told the two independent programs' answer: confirmed when it printed it
    if (answerAgrees(await wholeStdout(attempt.result), adopted.output, requestSoFar(run))) return { verdict: { kind: 'confirmed' }, final: false };
    return { verdict: { kind: 'ran', reason: `told the answer two independent programs agreed on («${boundLine(adopted.output, 200)}»), it printed «${boundLine(attempt.result.stdout, 200)}»` }, final: true };
  }
  if ((deps.verify !== 'checks' && deps.verify !== 'both') || !needsAgreement(run, attempt, verdict.kind, fromReview)) return { verdict, final: false };
  const request = requestSoFar(run);
  const answer = boundLine(attempt.result!.stdout, AGREEMENT_OUTPUT_CHARS);
  // a check that guessed its constant is the only disagreement: the answer is confirmed when an independent program prints it too
  const guesses = verdict.kind === 'ran' && !fromReview ? guessesOnly(run, attempt) : undefined;
  const withFiles = (run.inputProfile?.files.length ?? 0) > 0;
  const setAside = (others: string[], outcome: RunAgreement['outcome']) => {
    attempt.setAside = { checks: guesses!.map((g) => g.check), why: GUESS_SET_ASIDE_WHY };
    emit(options, { type: 'agreement', runId: run.id, attempt: attempt.index, outcome, answer, others, setAside: guesses! });
    return { verdict: { kind: 'confirmed' } as Verdict, final: false };
  };
  if (guesses) {
    // an independent program of this turn already printed this answer: no new one
    const known = options.independentAnswers?.find((o) => answerAgrees(attempt.result!.stdout, o, request));
    if (known !== undefined) return setAside([boundLine(known, AGREEMENT_OUTPUT_CHARS)], 'agreed');
    // without files, one cross-check per turn: later attempts go on against the check as before
    if (!withFiles && options.independentAnswers !== undefined) return { verdict, final: false };
  }
  // no time left for an independent program: the answer stays unconfirmed, and the run ends with it
  if (deps.noTime !== undefined) return { verdict: { kind: 'ran', reason: `it was not cross-checked: ${deps.noTime}` }, final: true };
  const results = new Map<number, ExecutionResult>();
  delete run.candidates;
  const record = await seekAgreement(deps, run, attempt, options, results, guesses && !withFiles ? 1 : MAX_INDEPENDENT);
  run.agreement = record;
  const others = programLines(record);
  if (guesses) options.independentAnswers = [...(options.independentAnswers ?? []), ...[...results.values()].filter((r) => r.success && r.stdout.trim() !== '').map((r) => r.stdout)];
  if (guesses && (record.outcome === 'agreed' || record.outcome === 'majority')) return setAside(others, record.outcome);
  emit(options, { type: 'agreement', runId: run.id, attempt: attempt.index, outcome: record.outcome, answer, others });
  if (record.outcome === 'agreed' || record.outcome === 'majority') return { verdict: { kind: 'confirmed' }, final: false };
  // without files, an independent program that does not print this answer leaves the check standing: attempts go on
  if (guesses && !withFiles) return { verdict, final: false };
  const answered = record.programs.filter((p) => p.output !== undefined);
  const candidates = record.outcome === 'disagreed' ? await makeCandidates(deps.executor, attempt, record, results, request, options.signal) : undefined;
  if (candidates) run.candidates = candidates;
  const full = [...results.values()].filter((r) => r.success && r.stdout.trim() !== '').map((r) => r.stdout);
  const partial = full.length > 0 ? partialAnswer(await wholeStdout(attempt.result!), full[0]!, request) : undefined;
  const partText = partial
    ? `; ${partial.partial === 'a' ? 'this answer leaves out' : 'the independent answer leaves out'} part of the other (${partial.leftOut.join(', ')})`
    : '';
  const reason =
    record.outcome === 'inconclusive'
      ? `no check could confirm it, and the independent program${record.programs.length === 1 ? '' : 's'} written to compare with failed (${others.map((o) => boundLine(o, 80)).join('; ')})`
      : full.length > 1 && agreeEitherWay(full[0]!, full[1]!, request)
        ? `two independent programs printed «${answered[0]!.output}» where this one printed «${answer}»${partText}`
        : `an independent program written to cross-check it printed «${answered.map((p) => p.output).join('» / «')}» where this one printed «${answer}»${partText}; either may be wrong`;
  const twoAgainstOne = record.outcome === 'disagreed' && full.length > 1 && agreeEitherWay(full[0]!, full[1]!, request);
  return { verdict: { kind: 'ran', reason }, final: true, ...(twoAgainstOne ? { adopt: full[0]! } : {}) };
}

/** Why checks that guessed their constant were set aside (`Attempt.setAside.why`). */
export const GUESS_SET_ASIDE_WHY = 'an independent program printed the same answer, and the request does not state the constant the check compares with';

/** What the attempt that adopts the two independent programs' answer is told (a `review` attempt's feedback). */
export function adoptionFeedback(output: string): string {
  return (
    `Two independent programs, written from scratch for this request, both printed this answer, which differs from your program's:\n${cutChars(output, 1500)}\n` +
    'Find what your program reads differently, and print that answer in the form the request asks for.'
  );
}
