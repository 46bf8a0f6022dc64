/**
 * What an executor's setup found (tools, isolation, the runner, the Python environment's dirs): the
 * type the executor hands to the modules that launch and finish a run, in its own file so that
 * they do not import the executor that imports them.
 */
import type { PythonDirs, SandboxTools } from './bwrap-args.js';
import type { SiteDirs } from './python-packages.js';
import type { Isolation } from './slot.js';

/** What setup found, once per executor. */
export interface Ready {
  tools: SandboxTools | null;
  isolated: boolean;
  iso: Isolation;
  runner: string;
  /** Host path of the seccomp filter handed to bwrap (x86_64 only). */
  seccomp?: string;
  /** Why isolation is off, for the warning. */
  reason?: string;
  /** The site dirs for the configured pins (they may not exist: setup not run). */
  siteDirs: SiteDirs;
  /** What every sandbox mounts of the Python environment (the font list joins after the probe). */
  pythonDirs: PythonDirs;
}
