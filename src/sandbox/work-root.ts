/**
 * The executor's own temp folder (`<tmpdir>/code-agent-sandbox-<pid>-*`: the runner copy, the seccomp
 * filter, the private work dirs). Nothing of a finished process stays: it is removed by
 * {@link OwnedWorkRoot.remove} (the app's `close()`), and, at the latest, when the process exits
 * (exit-cleanup.ts: after the sandboxes whose work dirs it holds).
 */
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atExit } from './exit-cleanup.js';

/** Prefix of the folders created in the OS temp dir. */
export const WORK_ROOT_PREFIX = 'code-agent-sandbox-';

/** A temp folder owned by this process. */
export interface OwnedWorkRoot {
  path: string;
  /** Removes the folder now (idempotent, synchronous, never throws). */
  remove(): void;
}

/**
 * Creates a fresh `code-agent-sandbox-<pid>-*` folder in the OS temp dir, removed at exit at the
 * latest (the pid lets a later process sweep it when this one dies without cleaning up: sweep.ts).
 */
export async function createWorkRoot(): Promise<OwnedWorkRoot> {
  const path = await mkdtemp(join(tmpdir(), `${WORK_ROOT_PREFIX}${process.pid}-`));
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    unhook();
    try {
      rmSync(path, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      /* a tree rm cannot remove is reported by the per-run cleanup */
    }
  };
  const unhook = atExit('root', remove); // after the sandboxes whose work dirs it holds (exit-cleanup.ts)
  return { path, remove };
}
