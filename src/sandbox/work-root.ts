/**
 * The executor's own temp folder (`<tmpdir>/code-agent-sandbox-<pid>-*`: the runner copy, the seccomp
 * filter, the private work dirs). Nothing of a finished process stays: it is removed by
 * {@link OwnedWorkRoot.remove} (the app's `close()`), and, at the latest, when the process exits
 * (normally, through `process.exit`, or on SIGTERM/SIGHUP when nothing else handles them).
 */
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Prefix of the folders created in the OS temp dir. */
export const WORK_ROOT_PREFIX = 'code-agent-sandbox-';

const owned = new Set<string>();
let hooked = false;

function removeAll(): void {
  for (const dir of owned) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      /* best effort at exit */
    }
  }
  owned.clear();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', removeAll);
  for (const sig of ['SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      // someone else handles the signal (e.g. a graceful shutdown that lets jobs finish): the
      // 'exit' hook cleans up when the process ends; otherwise clean up, then die as by default
      if (process.listenerCount(sig) > 1) return;
      removeAll();
      process.off(sig, onSignal);
      process.kill(process.pid, sig);
    };
    process.on(sig, onSignal);
  }
}

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
  owned.add(path);
  hookExit();
  return {
    path,
    remove: () => {
      if (!owned.delete(path)) return;
      try {
        rmSync(path, { recursive: true, force: true, maxRetries: 2 });
      } catch {
        /* a tree rm cannot remove is reported by the per-run cleanup */
      }
    },
  };
}
