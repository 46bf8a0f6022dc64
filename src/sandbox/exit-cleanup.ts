/**
 * What must not outlive this process, removed when it exits (normally, through `process.exit`, or
 * on SIGTERM/SIGHUP when nothing else handles them), in order: first the sandboxes (their processes
 * killed, cgroups removed, work dirs unmounted), then the temp folders that held their work dirs (a
 * folder with a tmpfs still mounted inside cannot be removed). One process listener for every
 * executor, pool and teardown, however many there are.
 */

/** When a cleanup runs at exit: `sandbox` before `root`. */
export type ExitPhase = 'sandbox' | 'root';

const phases: Record<ExitPhase, Set<() => void>> = { sandbox: new Set(), root: new Set() };
let hooked = false;

/** Runs every registered cleanup once, sandboxes first. Never throws. */
function runAll(): void {
  for (const phase of ['sandbox', 'root'] as const) {
    for (const cleanup of phases[phase]) {
      try {
        cleanup();
      } catch {
        /* best effort at exit */
      }
    }
    phases[phase].clear();
  }
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', runAll);
  for (const sig of ['SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      // someone else handles the signal (e.g. a graceful shutdown that lets jobs finish): the
      // 'exit' hook cleans up when the process ends; otherwise clean up, then die as by default
      if (process.listenerCount(sig) > 1) return;
      runAll();
      process.off(sig, onSignal);
      process.kill(process.pid, sig);
    };
    // first in line, so that it counts the others before a `once` listener removes itself
    process.prependListener(sig, onSignal);
  }
}

/**
 * Registers a synchronous cleanup (no event loop is left at exit) for `phase`.
 * @returns a function that unregisters it (when the thing was cleaned up before exit)
 */
export function atExit(phase: ExitPhase, cleanup: () => void): () => void {
  hookExit();
  phases[phase].add(cleanup);
  return () => phases[phase].delete(cleanup);
}
