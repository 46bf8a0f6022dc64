/**
 * Reading the data: the run's input files profiled before the first LLM call (`profile-step.ts`),
 * its workspace between turns (`workspace-files.ts`), and how each program read the data (columns,
 * rows, groups: `readings.ts`, with `reading.py` run in the sandbox). Imports only `run`.
 */

export { profileRunInputs } from './profile-step.js';
export { readPrograms } from './readings.js';
export { addWorkspaceFiles, listWorkspace, removeWorkspaceFile } from './workspace-files.js';
export type { WorkspaceFilesDeps } from './workspace-files.js';
