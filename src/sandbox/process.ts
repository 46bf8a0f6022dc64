/**
 * Runs one sandbox command line and watches it: wall time, output cap, cancellation.
 * The command starts in a new process group; every kill is SIGKILL to that whole group.
 * In isolated mode that kills the outer bwrap, whose `--die-with-parent` takes down the
 * pid namespace's init and with it every process inside (even ones that called setsid).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { exitingStatus, programPid, type SupervisorStatus } from './exit-status.js';
import { CappedOutput } from './output.js';

/** After the program exits, how long stray holders of its pipes may keep them open, in ms. */
export const PIPE_GRACE_MS = 250;
/** Longest checks report kept from the child's report pipe, in bytes. */
export const MAX_REPORT_BYTES = 256 * 1024;
/** Looks at the program's /proc/PID/stat after its exit hint, one per turn of the event loop. */
const HINT_LOOKS = 20;
/** After a kill, how long to wait for the process to be reaped before giving up on it, in ms. */
export const KILL_GRACE_MS = 2000;

/** What to run and how long to let it. */
export interface WatchedRun {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Wall time, in s. */
  wallTimeS: number;
  /** An open host fd handed to the child as its fd 3 (e.g. bwrap's seccomp filter). */
  extraFd?: number;
  /**
   * Checks: an open host fd handed to the child as its fd 4 (the checks' source), and a pipe as its
   * fd 5 whose text (at most {@link MAX_REPORT_BYTES}) comes back as `report`.
   */
  checksFd?: number;
  /** Total stdout + stderr kept, in bytes. */
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** Called once the process exists, with a function that kills its whole tree (for other guards). */
  onSpawn?: (kill: () => void) => void;
}

/** How the run ended. */
export interface RunOutcome {
  stdout: string;
  stderr: string;
  /** Exit code of the command (bwrap reports a signal death as 128 + signal number). */
  exitCode: number | null;
  /** Signal that killed the command itself (our SIGKILL), else null. */
  signal: string | null;
  timedOut: boolean;
  outputExceeded: boolean;
  cancelled: boolean;
  /** Wall time from spawn to the end, in ms. */
  durationMs: number;
  /** Process id of the command (its process group id too). */
  pid: number | undefined;
  /** What the child wrote on its report pipe (only with `checksFd`; empty when it wrote nothing). */
  report: string;
  /** The runner's supervisor's status (fd 6), when it sent one (not when killed first). */
  supervisor?: SupervisorStatus;
}

/** Sends SIGKILL to a whole process group; ignores groups that are already gone. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}


/** A spawned sandbox command, not yet watched (a pooled sandbox waits like this for its job). */
export interface StartedProcess {
  child: ChildProcess;
  /** Kills the whole process group. */
  kill: () => void;
  /** Resolves once the runner said `ready` (pool mode) — or rejects when it exited before. */
  ready: Promise<void>;
  /** The supervisor's final status, once it arrived (undefined until then, or when it never did). */
  status(): SupervisorStatus | undefined;
  /** Calls `cb` once when the supervisor's final status arrives (at once if it already did). */
  onStatus(cb: () => void): void;
  /** The child's fd 4 when it is a pipe (pool mode: the job goes there). */
  control: Writable | null;
  /** Lets the host process exit while this waits (a pooled sandbox); watching refs it again. */
  unref(): void;
}

/** Spawns the command in its own process group; output is discarded until it is watched. */
export function startProcess(run: Pick<WatchedRun, 'file' | 'args' | 'env' | 'cwd' | 'extraFd' | 'checksFd'> & { controlPipe?: boolean }): StartedProcess {
  const child = spawn(run.file, run.args, {
    env: run.env,
    cwd: run.cwd,
    stdio: stdioOf(run),
    detached: true, // own process group, so the whole tree can be killed at once
  });
  const discard = () => {};
  // a pipe the sandbox closed or died on (EPIPE, ECONNRESET) is the sandbox's end, not the host's error
  for (const stream of child.stdio) (stream as Readable | null)?.on('error', discard);
  child.stdout?.on('data', discard);
  child.stderr?.on('data', discard);
  const pipes = child.stdio as unknown[];
  const statusPipe = (pipes[6] as Readable | null | undefined) ?? null;
  const hintPipe = (pipes[7] as Readable | null | undefined) ?? null;
  let status: SupervisorStatus | undefined;
  let statusListener: (() => void) | undefined;
  let text = '';
  let onReady: () => void = () => {};
  let onGone: (err: Error) => void = () => {};
  const ready = new Promise<void>((res, rej) => ((onReady = res), (onGone = rej)));
  ready.catch(() => undefined);
  statusPipe?.on('data', (c: Buffer) => {
    text += c.toString('utf8');
    if (text.length > 4096) text = text.slice(-4096);
    let nl: number;
    while ((nl = text.indexOf('\n')) >= 0) {
      const line = text.slice(0, nl);
      text = text.slice(nl + 1);
      try {
        const parsed = JSON.parse(line) as SupervisorStatus & { ready?: boolean };
        if (parsed.ready) onReady();
        else if (typeof parsed.exit === 'number' || typeof parsed.signal === 'number') {
          status = parsed;
          statusListener?.();
        }
      } catch {
        /* not ours: ignored */
      }
    }
  });
  // the program's exit hint: its status from the kernel's record, before the supervisor's report
  let program: number | undefined;
  hintPipe?.on('data', () => {
    if (status || child.pid === undefined) return;
    program ??= programPid(child.pid);
    const fromKernel = program === undefined ? undefined : whenExiting(program);
    void fromKernel?.then((st) => {
      if (!st || status) return;
      status = st;
      statusListener?.();
    });
  });
  child.on('exit', () => onGone(new Error('the sandbox exited before it was ready')));
  child.on('error', (err) => onGone(err));
  return {
    child,
    kill: () => killGroup(child.pid),
    ready,
    status: () => status,
    onStatus: (cb) => {
      if (status) cb();
      else statusListener = cb;
    },
    control: run.controlPipe ? ((pipes[4] as Writable | null) ?? null) : null,
    unref: () => setRef(child, false),
  };
}

/**
 * The exit status of `pid` once the kernel says it is exiting, looked at for a few turns of the
 * event loop (the hint comes right before `_exit`); undefined when it does not exit meanwhile.
 */
async function whenExiting(pid: number): Promise<SupervisorStatus | undefined> {
  for (let i = 0; i < HINT_LOOKS; i++) {
    const st = exitingStatus(pid);
    if (st) return st;
    await new Promise((r) => setImmediate(r));
  }
  return undefined;
}

/** Refs or unrefs a child and its pipes (an unref'd one does not keep the event loop alive). */
function setRef(child: ChildProcess, on: boolean): void {
  if (on) child.ref();
  else child.unref();
  for (const s of child.stdio) {
    const handle = s as unknown as { ref?: () => void; unref?: () => void } | null;
    if (on) handle?.ref?.();
    else handle?.unref?.();
  }
}

/** Runs the command to its end. Never rejects for anything the program does. */
export function runWatched(run: WatchedRun): Promise<RunOutcome> {
  return watchProcess(startProcess(run), run);
}

/** Watches a started command to its end (wall time from now). Never rejects for anything the program does. */
export function watchProcess(started: StartedProcess, run: WatchedRun): Promise<RunOutcome> {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    const child = started.child;
    setRef(child, true);
    child.stdout?.removeAllListeners('data');
    child.stderr?.removeAllListeners('data');
    const kill = started.kill;
    if (child.pid !== undefined) run.onSpawn?.(kill);
    const output = new CappedOutput(run.maxOutputBytes, kill);
    const timers: NodeJS.Timeout[] = [];
    const later = (ms: number, fn: () => void) => timers.push(setTimeout(fn, ms));
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null =
      child.exitCode !== null || child.signalCode !== null ? { code: child.exitCode, signal: child.signalCode } : null;

    const finish = () => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      run.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      reportPipe?.destroy();
      kill(); // nothing of this run outlives it
      resolve({
        stdout: output.text('stdout'),
        stderr: output.text('stderr'),
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        outputExceeded: output.exceeded,
        cancelled,
        durationMs: Math.round(performance.now() - startedAt),
        pid: child.pid,
        report: reportBytes <= MAX_REPORT_BYTES ? Buffer.concat(report).toString('utf8') : '',
        supervisor: started.status(),
      });
    };
    const onAbort = () => {
      cancelled = true;
      kill();
      later(KILL_GRACE_MS, finish);
    };

    const report: Buffer[] = [];
    let reportBytes = 0;
    const reportPipe = ((child.stdio as unknown[])[5] as Readable | null | undefined) ?? undefined;
    reportPipe?.on('data', (c: Buffer) => {
      if (reportBytes + c.length <= MAX_REPORT_BYTES) report.push(c);
      reportBytes += c.length;
    });
    child.stdout?.on('data', (c: Buffer) => output.push('stdout', c));
    child.stderr?.on('data', (c: Buffer) => output.push('stderr', c));
    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      reject(err);
    });
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      exit = { code, signal };
      later(PIPE_GRACE_MS, finish); // a stray process may still hold the pipes
    };
    if (exit === null) child.on('exit', onExit);
    else later(PIPE_GRACE_MS, finish);
    // The program's real end: its supervisor says so before the sandbox's own teardown (which the
    // kill in finish cuts short). Everything the program wrote is already in the pipes (it exited
    // before the status was written): one more poll of the event loop reads it (libuv polls
    // level-triggered and drains up to 32 reads per ready pipe; a pipe holds 64 KiB).
    started.onStatus(() => afterNextPoll(finish));
    child.on('close', finish);

    later(run.wallTimeS * 1000, () => {
      if (exit !== null) return;
      timedOut = true;
      kill();
      later(KILL_GRACE_MS, finish);
    });
    if (run.signal?.aborted) onAbort();
    else run.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Calls `fn` after the event loop's next poll phase: an immediate runs after this loop's poll, so
 * an immediate queued from there runs after the following one.
 */
function afterNextPoll(fn: () => void): void {
  setImmediate(() => setImmediate(fn));
}

function stdioOf(run: Pick<WatchedRun, 'extraFd' | 'checksFd'> & { controlPipe?: boolean }): ('ignore' | 'pipe' | number)[] {
  // 3: seccomp filter; 4: checks (a file) or the job (a pipe, pool mode); 5: checks report; 6: supervisor status;
  // 7: the program's exit hint
  return ['ignore', 'pipe', 'pipe', run.extraFd ?? 'ignore', run.controlPipe ? 'pipe' : (run.checksFd ?? 'ignore'), 'pipe', 'pipe', 'pipe'];
}
/** Maps a bwrap exit code of 128 + n back to the name of signal n, else null. */
export function signalFromExitCode(code: number | null): string | null {
  if (code === null || code <= 128 || code > 128 + 64) return null;
  const n = code - 128;
  const entry = Object.entries(constants.signals).find(([, v]) => v === n);
  return entry?.[0] ?? null;
}
