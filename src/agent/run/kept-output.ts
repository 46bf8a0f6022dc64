/**
 * What of an execution's output the history keeps. A program may print up to the output cap
 * (1 MiB by default) on every attempt; the run record keeps at most {@link HISTORY_STREAM_CHARS}
 * characters per stream (head and tail, a marker between), and the full text of a cut stream is
 * written next to the attempt's artifacts, its host path in `result.fullOutput`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecutionResult } from '../../sandbox/types.js';
import { boundMiddle } from '../../text/cut.js';

/** Most characters of stdout, and of stderr, kept in a run record per attempt. */
export const HISTORY_STREAM_CHARS = 16_000;

/**
 * File names of the full text inside an attempt's artifact folder. Artifact names never start with
 * a dot (`src/text/file-names.ts`), so these cannot collide with a file the program wrote.
 */
export const FULL_OUTPUT_FILES = { stdout: '.stdout.txt', stderr: '.stderr.txt' } as const;

/** The result to store and the result to show (the full text, with the same `fullOutput` paths). */
export interface KeptOutput {
  stored: ExecutionResult;
  shown: ExecutionResult;
}

/**
 * Bounds the streams of `result` for the history; writes each cut stream whole into `dir`.
 * If the file cannot be written, the bounded text is still stored (its marker says what was left out).
 */
export async function keepFullOutput(result: ExecutionResult, dir: string): Promise<KeptOutput> {
  const fullOutput: NonNullable<ExecutionResult['fullOutput']> = {};
  const stored: ExecutionResult = { ...result };
  for (const stream of ['stdout', 'stderr'] as const) {
    if (result[stream].length <= HISTORY_STREAM_CHARS) continue;
    stored[stream] = boundMiddle(result[stream], HISTORY_STREAM_CHARS);
    try {
      await mkdir(dir, { recursive: true });
      const path = join(dir, FULL_OUTPUT_FILES[stream]);
      await writeFile(path, result[stream]);
      fullOutput[stream] = path;
    } catch {
      /* the bounded text is kept all the same */
    }
  }
  if (Object.keys(fullOutput).length === 0) return { stored, shown: result };
  stored.fullOutput = fullOutput;
  return { stored, shown: { ...result, fullOutput } };
}

/**
 * The whole stdout of a result whose record may keep only a cut of it (see {@link keepFullOutput}):
 * the file written beside its artifacts when there is one, else the text kept. What is compared (two
 * answers, a candidate with another) is always the whole text, never a cut made for display or storage.
 */
export async function wholeStdout(result: Pick<ExecutionResult, 'stdout' | 'fullOutput'>): Promise<string> {
  const path = result.fullOutput?.stdout;
  if (path === undefined) return result.stdout;
  return readFile(path, 'utf8').catch(() => result.stdout);
}
