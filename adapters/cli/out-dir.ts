/**
 * `--out DIR`: the files a run's program wrote (its artifacts, kept under the data folder) are also
 * copied into a folder of the user's choice. An existing file is never overwritten: the copy gets
 * the next free name (`plot.png` → `plot-2.png`).
 */
import { constants } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import type { Run } from '../../src/history/types.js';
import { answerResult } from './outcome.js';
import { InputError } from '../../src/config/errors.js';

/** One copied file. */
export interface CopiedArtifact {
  name: string;
  /** Where the file is kept under the data folder. */
  from: string;
  /** Where it was copied. */
  to: string;
}

/**
 * Copies the run's artifacts into `dir` (created when missing).
 * @returns the copies, in artifact order.
 * @throws {InputError} when `dir` cannot be created or written (it names the folder and why).
 */
export async function copyArtifacts(run: Run, dir: string): Promise<CopiedArtifact[]> {
  const artifacts = answerResult(run)?.artifacts ?? [];
  if (artifacts.length === 0) return [];
  const target = resolve(dir);
  try {
    await mkdir(target, { recursive: true });
  } catch (err) {
    throw new InputError(`--out ${dir}: cannot create the folder (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const copies: CopiedArtifact[] = [];
  for (const artifact of artifacts) {
    copies.push({ name: artifact.name, from: artifact.path, to: await copyWithoutOverwrite(artifact.path, target, artifact.name, dir) });
  }
  return copies;
}

async function copyWithoutOverwrite(from: string, dir: string, name: string, shown: string): Promise<string> {
  // an artifact in a subfolder (`plots/a.png`) is copied into the same subfolder
  await mkdir(dirname(join(dir, name)), { recursive: true }).catch(() => undefined);
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; n < 1000; n++) {
    const to = join(dir, n === 1 ? name : `${stem}-${n}${ext}`);
    try {
      await copyFile(from, to, constants.COPYFILE_EXCL);
      return to;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      throw new InputError(`--out ${shown}: cannot write ${to} (${code ?? (err as Error).message})`);
    }
  }
  throw new InputError(`--out ${shown}: ${name} and 998 numbered copies already exist`);
}

/**
 * For a failed run (`--out` copies nothing of it): `[Agent] Nothing copied to results: the run
 * failed, and figure_1.png is what its last program wrote before it failed`; undefined when that
 * program wrote no file.
 */
export function notCopiedLine(run: Run, dir: string): string | undefined {
  const names = (answerResult(run)?.artifacts ?? []).map((a) => a.name);
  if (names.length === 0) return undefined;
  const what = names.length === 1 ? `${names[0]} is what` : `${names.join(', ')} are what`;
  return `[Agent] Nothing copied to ${dir}: the run failed, and ${what} its last program wrote before it failed`;
}

/** `[Agent] Files copied to out/: plot.png, data-2.csv` */
export function copiedLine(copies: readonly CopiedArtifact[]): string {
  return `[Agent] ${copies.length === 1 ? 'File' : 'Files'} copied: ${copies.map((c) => c.to).join(', ')}`;
}
