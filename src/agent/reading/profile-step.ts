/**
 * The profile step of a run: its input files profiled in the sandbox before the first LLM call
 * (`src/data/profile.ts`), kept on the run, and what was seen said once.
 */
import type { Executor } from '../../sandbox/types.js';
import type { Run } from '../../history/types.js';
import { emit, type CallOptions } from '../run/index.js';
import { profileInputs } from '../../data/profile.js';
import { sandboxInputNames } from '../../text/file-names.js';

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
