/**
 * The steps of a run that concern its input files: profiling them before the first LLM call, the
 * request the check writer reads (with the profile), and settling a verdict by agreement when the
 * checks cannot pin the answer. `steps.ts` calls these; they store nothing themselves.
 */
import type { AgentTools } from '../tools/types.js';
import type { Executor } from '../sandbox/types.js';
import type { LlmProvider } from '../llm/types.js';
import type { Attempt, Run } from '../history/types.js';
import { emit, type CallOptions, type VerifyMode } from './call-options.js';
import type { Verdict } from './verdict.js';
import { requestSoFar } from './verdict.js';
import { profileInputs, profileSection } from '../data/profile.js';
import { sandboxInputNames } from '../text/file-names.js';
import { needsAgreement, programLines, seekAgreement, AGREEMENT_OUTPUT_CHARS } from './agreement-step.js';
import { boundLine } from '../text/cut.js';
import { agreeEitherWay } from './agreement.js';
import type { WorkspaceManifest } from '../history/workspace.js';
import { definitionsSection } from '../memory/prompt.js';

/**
 * Profiles the run's workspace files in the sandbox (under the names the program will see) and
 * keeps the profile on the run; emits `profiled` for the files profiled for the first time in the
 * run (or changed). Nothing happens without files.
 * @throws {SandboxUnavailableError} when the sandbox cannot isolate here
 */
export async function profileRunInputs(executor: Executor, run: Run, options: CallOptions): Promise<void> {
  const { files } = sandboxInputNames(options.inputFiles ?? []);
  if (files.length === 0) return;
  const before = new Set((run.inputProfile?.files ?? []).map((f) => `${f.name}\0${f.summary}`));
  run.inputProfile = await profileInputs(executor, files, options.signal);
  // a later turn says only what is new (the workspace event lists every file)
  const fresh = run.inputProfile.files.filter((f) => !before.has(`${f.name}\0${f.summary}`));
  if (fresh.length > 0) emit(options, { type: 'profiled', runId: run.id, files: fresh.map(({ name, summary }) => ({ name, summary })) });
}

/** What the check writer reads: the request so far, the channel's definitions given to the run and, on input files, their profile. */
export function checksRequest(run: Run): string {
  const section = run.inputProfile ? profileSection(run.inputProfile) : '';
  return [requestSoFar(run), definitionsSection(run.memory), section].filter((t) => t !== '').join('\n\n');
}

/**
 * With checks on (`checks`/`both`), when an attempt needs agreement (see `needsAgreement`), asks independent programs
 * and turns the outcome into the verdict: confirmed when they agree (or the majority does); else
 * `final` (no further attempt: the model that wrote both cannot say which is right) with both
 * answers in the reason. Other verdicts pass through unchanged. With `noTime` (the call's time budget
 * has no room for an independent program), the answer is not cross-checked: final, with that reason.
 */
export async function settleByAgreement(
  deps: { llm: LlmProvider; executor: Executor; artifactRoot: string; verify: VerifyMode; system?: string; tools?: AgentTools; noTime?: string; workspace?: WorkspaceManifest },
  run: Run,
  attempt: Attempt,
  verdict: Verdict,
  options: CallOptions,
): Promise<{ verdict: Verdict; final: boolean }> {
  const fromReview = verdict.kind === 'ran' && verdict.defect !== undefined;
  if ((deps.verify !== 'checks' && deps.verify !== 'both') || !needsAgreement(run, attempt, verdict.kind, fromReview)) return { verdict, final: false };
  // no time left for an independent program: the answer stays unconfirmed, and the run ends with it
  if (deps.noTime !== undefined) return { verdict: { kind: 'ran', reason: `it was not cross-checked: ${deps.noTime}` }, final: true };
  const record = await seekAgreement(deps, run, attempt, options);
  run.agreement = record;
  const answer = boundLine(attempt.result!.stdout, AGREEMENT_OUTPUT_CHARS);
  const others = programLines(record);
  emit(options, { type: 'agreement', runId: run.id, attempt: attempt.index, outcome: record.outcome, answer, others });
  if (record.outcome === 'agreed' || record.outcome === 'majority') return { verdict: { kind: 'confirmed' }, final: false };
  const answered = record.programs.filter((p) => p.output !== undefined);
  const reason =
    record.outcome === 'inconclusive'
      ? `no check could confirm it, and the independent program${record.programs.length === 1 ? '' : 's'} written to compare with failed (${others.map((o) => boundLine(o, 80)).join('; ')})`
      : answered.length > 1 && agreeEitherWay(answered[0]!.output!, answered[1]!.output!, requestSoFar(run))
        ? `two independent programs printed «${answered[0]!.output}» where this one printed «${answer}»`
        : `an independent program written to cross-check it printed «${answered.map((p) => p.output).join('» / «')}» where this one printed «${answer}»; either may be wrong`;
  return { verdict: { kind: 'ran', reason }, final: true };
}
