/**
 * The turn of a team program's run (DESIGN "What the team approved runs again"): no LLM call. The
 * run's one attempt is the stored code with its parameters applied, executed in the sandbox with
 * the run's files, through the same steps as any run (events, artifacts, workspace, history). The
 * files are profiled first and compared with what the version was saved with: files that do not
 * fit are said before anything runs, and the run ends failed with the offer to adapt it (a reply
 * improves it as usual; its result becomes a new version only once someone saves it). A program
 * that ran with exit 0 is the run's answer: the team approved it (its mark says so, src/programs/text.ts).
 */
import type { HistoryStore, Run } from '../../history/types.js';
import type { RunProgram, ProgramVersion } from '../../history/programs.js';
import type { InputFile } from '../../sandbox/types.js';
import { fitCheck } from '../../programs/inputs.js';
import { pythonLiteral } from '../../programs/parameters.js';
import type { PreparedProgram } from '../../programs/team-programs.js';
import { emit, newAttempt, type TurnOptions } from '../run/index.js';
import { summarizeFailure } from '../failures/index.js';
import type { RunSteps } from './steps.js';

/** The mark a new program run is stored with (its attempt is the run's first). */
export function runProgramMark(prepared: PreparedProgram, matched = false): RunProgram {
  const v = prepared.version;
  return {
    name: prepared.program.name,
    version: v.version,
    approvedBy: v.approvedBy,
    ...(v.approvedByName ? { approvedByName: v.approvedByName } : {}),
    approvedAt: v.approvedAt,
    params: { ...prepared.values },
    attempt: 1,
    ...(matched ? { matched: true as const } : {}),
  };
}

/**
 * The files a program runs with when none are given: the files given to the run it was saved from
 * (its workspace's inputs), when that run and its files are still kept; else none (the fit check
 * then says which are missing).
 */
export async function savedInputs(store: HistoryStore, conversationId: string, version: ProgramVersion): Promise<InputFile[]> {
  if (version.inputs.files.length === 0) return [];
  try {
    const manifest = await store.getWorkspace(conversationId, version.runId);
    const files = manifest.files.filter((f) => f.origin.kind === 'input');
    if (files.length === 0) return [];
    return await store.readWorkspace(conversationId, version.runId, { files });
  } catch {
    return [];
  }
}

/** The body of a program's turn (see the module comment); `run.program` is set. */
export async function programTurn(steps: RunSteps, run: Run, prepared: PreparedProgram, options: TurnOptions): Promise<void> {
  const mark = run.program!;
  const v = prepared.version;
  emit(options, {
    type: 'program',
    runId: run.id,
    name: mark.name,
    version: mark.version,
    approvedBy: mark.approvedBy,
    ...(mark.approvedByName ? { approvedByName: mark.approvedByName } : {}),
    approvedAt: mark.approvedAt,
    ...(mark.matched ? { matched: true as const } : {}),
    params: v.parameters.map((p) => {
      const given = Object.prototype.hasOwnProperty.call(prepared.values, p.name);
      return { name: p.name, value: pythonLiteral(p.type, given ? prepared.values[p.name]! : p.default), given };
    }),
  });
  await steps.profileInputs(run, options);
  const attempt = newAttempt(run, 'rerun', prepared.code, undefined, options.workspace?.fingerprint);
  run.attempts.push(attempt);
  mark.attempt = attempt.index;
  const misfits = fitCheck(v.inputs, run.inputProfile);
  if (misfits.length > 0) {
    mark.misfits = misfits;
    emit(options, { type: 'program_misfit', runId: run.id, name: mark.name, version: mark.version, misfits });
    const more = misfits.length > 1 ? ` (and ${misfits.length - 1} more)` : '';
    await steps.finish(run, 'failed', `the files do not fit team program \`${mark.name}\` v${mark.version}: ${misfits[0]}${more}`, options);
    return;
  }
  await steps.executeLatest(run, options);
  const result = attempt.result;
  if (result?.success) await steps.finish(run, 'success', undefined, options);
  else await steps.finish(run, 'failed', result ? summarizeFailure(result) : 'the program was not executed', options);
}
