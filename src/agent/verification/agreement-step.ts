/**
 * The agreement step of a run (see `agreement.ts` for what agreeing means): when an attempt on input
 * files ran and its checks cannot pin its answer, independent programs compute it again and the
 * printed answers are compared.
 */
import { withTeamModule } from '../../memory/helpers.js';
import type { AgentTools } from '../../tools/types.js';
import { emit, type CallOptions, safeSegment, wholeStdout } from '../run/index.js';
import { join } from 'node:path';
import type { ChatMessage, LlmProvider } from '../../llm/types.js';
import type { ExecutionResult, Executor } from '../../sandbox/types.js';
import type { Attempt, Run } from '../../history/types.js';
import { askForProgram, SYSTEM_PROMPT, sharedOpening } from '../replies/index.js';
import type { WorkspaceManifest } from '../../history/workspace.js';
import { profileSection } from '../../data/profile.js';
import { judgeSettingAside, requestSoFar } from './verdict.js';
import { guessOnlyShortfall } from './guess-step.js';
import type { GuessedCheck } from './guesses.js';
import { summarizeFailure } from '../failures/index.js';
import { boundLine } from '../../text/cut.js';
import { AGREEMENT_TEMPERATURE, FROM_FIELDS_INSTRUCTION, INDEPENDENT_INSTRUCTION, MAX_INDEPENDENT, answerAgrees, type RunAgreement } from './agreement.js';

/** What the request states that a program did not follow (its code and output), one message each: `../requirements/methods/requirements.ts`. */
export type UnmetRequirements = (code: string, stdout: string) => Promise<string[]>;

/** Longest output kept per program in the agreement record and shown in its event, in characters. */
export const AGREEMENT_OUTPUT_CHARS = 300;

/**
 * What an independent program is asked: the system prompt, the request, the workspace listing and
 * the input profile (opening as the run's attempts do, see `sharedOpening`, so a local model reuses
 * what it evaluated for them), the changes asked for since, and nothing of the first program.
 * @param system the system prompt of the run's attempts (naming the sandbox's packages)
 * @param workspace the run's workspace as the attempts were shown it
 */
export function independentMessages(run: Run, system: string = SYSTEM_PROMPT, workspace?: WorkspaceManifest): ChatMessage[] {
  const hasProfile = run.inputProfile !== undefined && profileSection(run.inputProfile) !== '';
  const changes = requestSoFar(run).slice(run.requirement.length).trim();
  const parts = [sharedOpening(run, { workspace }), ...(changes !== '' ? [changes] : []), ...(hasProfile ? [FROM_FIELDS_INSTRUCTION] : []), INDEPENDENT_INSTRUCTION];
  return [
    { role: 'system', content: system },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

/** A request whose answer is a picture (a chart, plot, figure…), not what the program prints. */
const PICTURE_REQUEST = /\b(?:plot(?:s|ted|ting)?|chart|graph|figure|histogram|diagram|draw|visuali[sz]e|image|picture)\b/i;

/** A request whose answer is random by design (independent programs could not agree on it). */
const RANDOM_REQUEST = /\b(?:random(?:ly)?|shuffle[ds]?|simulat(?:e|ed|ion)|monte carlo|sample \d+|a sample of)\b/i;

/**
 * Whether a verdict on an attempt needs agreement. Never for an attempt that printed nothing, a
 * request whose answer is random, or one whose answer is a picture. With or without input files:
 * when its only disagreement is a check that guessed its constant ({@link guessesOnly}). Without input files: when it
 * was confirmed with nothing checked (no checks could be derived, or every assert was ignored).
 * With input files (a check cannot know values that depend on data it never read): when it was
 * confirmed, or it ran and a check failed where the checks read the data themselves (a value the
 * model computed inside a check is another opinion, not proof).
 */
export function needsAgreement(run: Run, attempt: Attempt, verdictKind: 'confirmed' | 'ran' | 'failed', fromReview: boolean): boolean {
  if (!attempt.result?.success || attempt.result.stdout.trim() === '') return false;
  const request = requestSoFar(run);
  if (RANDOM_REQUEST.test(request)) return false; // two samples of random output never agree
  if (PICTURE_REQUEST.test(request)) return false; // the answer is the picture; what it prints is incidental
  if (verdictKind === 'ran' && !fromReview && guessesOnly(run, attempt) !== undefined) return true;
  if (!run.inputProfile?.files.length) return verdictKind === 'confirmed' && nothingChecked(run, attempt);
  if (verdictKind === 'confirmed') return true;
  if (verdictKind !== 'ran' || fromReview) return false;
  const report = attempt.result.checks;
  if (!report || report.error) return false;
  return report.results.some((r) => !r.passed) && readsData(run.checks?.code ?? '', run);
}

/**
 * The checks that guessed their constant (`guesses.ts`), when they are the attempt's only
 * disagreement: set aside, it would be confirmed. Undefined otherwise.
 */
export function guessesOnly(run: Run, attempt: Attempt): GuessedCheck[] | undefined {
  return guessOnlyShortfall(run, attempt, (aside) => judgeSettingAside(attempt, run, aside).kind === 'confirmed');
}

/** True when no check judged the attempt: none could be derived, or every assert was ignored (it read nothing of the program). */
function nothingChecked(run: Run, attempt: Attempt): boolean {
  if (!run.checks?.code) return true;
  const report = attempt.result?.checks;
  return report !== undefined && !report.error && report.results.length === 0;
}

/** True when check source reads an input file itself (names one, or opens/loads a file). */
function readsData(source: string, run: Run): boolean {
  return (run.inputProfile?.files ?? []).some((f) => source.includes(f.name)) || /\b(?:open|read_csv|read_json|read_excel|json\.load)\s*\(/.test(source);
}

/**
 * Makes up to `max` ({@link MAX_INDEPENDENT}) independent programs and compares what they print with the
 * attempt's output: the first that agrees confirms it (`agreed`, or `majority` after a
 * disagreement); when none does, `disagreed` (some ran) or `inconclusive` (none ran). A program that
 * does not follow what the request states (`deps.requirements`) counts as one that failed.
 * @param results filled with each independent program's execution result, by its 1-based number (for the candidates)
 * @throws {LlmError} when an LLM call fails (the caller's guard ends the run)
 */
export async function seekAgreement(
  deps: { llm: LlmProvider; executor: Executor; artifactRoot: string; system?: string; tools?: AgentTools; workspace?: WorkspaceManifest; requirements?: UnmetRequirements },
  run: Run,
  attempt: Attempt,
  options: CallOptions,
  results?: Map<number, ExecutionResult>,
  max: number = MAX_INDEPENDENT,
): Promise<RunAgreement> {
  const request = requestSoFar(run);
  const answer = await wholeStdout(attempt.result!); // the record keeps a cut of a long output: compare the whole (case B2)
  const record: RunAgreement = { outcome: 'inconclusive', attempt: attempt.index, programs: [], usage: { promptTokens: 0, completionTokens: 0 } };
  for (let i = 1; i <= max; i++) {
    const reply = await askForProgram(deps.llm, independentMessages(run, deps.system, deps.workspace), { signal: options.signal, temperature: AGREEMENT_TEMPERATURE });
    record.usage.promptTokens += reply.usage.promptTokens;
    record.usage.completionTokens += reply.usage.completionTokens;
    if (reply.code === undefined) {
      record.programs.push({ code: '', failure: reply.error ?? 'no program', agreed: false });
      continue;
    }
    const result = await deps.executor.execute(reply.code, {
      inputFiles: withTeamModule(options.inputFiles, run.memory), // they read the same glossary, helpers included
      signal: options.signal,
      artifactDir: join(deps.artifactRoot, safeSegment(run.conversationId), run.id, `independent-${attempt.index}-${i}`),
      tools: deps.tools?.brokerFor(run.conversationId),
    });
    if (options.signal?.aborted) throw new Error('cancelled');
    results?.set(i, result);
    if (result.toolCalls?.length) emit(options, { type: 'tool_calls', runId: run.id, attempt: attempt.index, independent: i, calls: result.toolCalls });
    if (!result.success || result.stdout.trim() === '') {
      record.programs.push({ code: reply.code, failure: result.success ? 'printed nothing' : summarizeFailure(result), agreed: false });
      continue;
    }
    // a program that ignores a stated method, or prints an object where a value was asked, is no opinion on the answer
    const unmet = (await deps.requirements?.(reply.code, result.stdout)) ?? [];
    if (unmet.length > 0) {
      results?.delete(i); // not a candidate either
      record.programs.push({ code: reply.code, failure: `it does not follow the request: ${unmet.join('; ')}`, agreed: false });
      continue;
    }
    const agreed = answerAgrees(answer, result.stdout, request);
    record.programs.push({ code: reply.code, output: boundLine(result.stdout, AGREEMENT_OUTPUT_CHARS), agreed });
    if (agreed) {
      record.outcome = record.programs.some((p) => p.output !== undefined && !p.agreed) ? 'majority' : 'agreed';
      return record;
    }
    record.outcome = 'disagreed';
  }
  return record;
}

/** One line per independent program for the event and the run's error: its output, or why it has none. */
export function programLines(record: RunAgreement): string[] {
  return record.programs.map((p) => p.output ?? `(no answer: ${boundLine(p.failure ?? 'failed', 120)})`);
}
