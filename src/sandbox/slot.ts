/**
 * The host side of one run: a random sandbox uid (as root), a private work dir (a size-limited
 * tmpfs where mounting is allowed), and a cgroup (where cgroups are writable). Opened before the
 * sandbox starts, closed after its artifacts were copied out; closing leaves nothing on the host.
 */
import type { ChildProcess } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { OWN_PROCESSES } from './bwrap-args.js';
import { RunCgroup, type CgroupSupport } from './cgroup.js';
import { atExit } from './exit-cleanup.js';
import { removeTree } from './cleanup.js';
import { mountWorkDir, resizeWorkDir, unmountWorkDir, unmountWorkDirSync } from './work-fs.js';
import type { ExecutionLimits } from './types.js';

/** Host uids handed to sandboxed programs when running as root: one at random per execution. */
export const SANDBOX_UID_MIN = 200_000;
/** Exclusive upper bound of {@link SANDBOX_UID_MIN}'s range. */
export const SANDBOX_UID_MAX = 265_000;

/** What isolation this executor has (decided once, at setup). */
export interface Isolation {
  workRoot: string;
  /** Run cgroups: where, or why none. */
  cgroups: CgroupSupport;
  /** The work dir is a size-limited tmpfs (else: a host folder watched by the polling guard). */
  tmpfs: boolean;
  /** Drop to a random uid per run (root only). */
  randomUid: boolean;
}

/** One run's host resources. */
export interface Slot {
  hostId: number | null;
  workDir: string;
  cgroup: RunCgroup | null;
  tmpfs: boolean;
  /** The work dir budget it was mounted with, in bytes. */
  diskBytes: number;
  /** The `mount` process while the work dir is being mounted. */
  mounting?: ChildProcess;
  /**
   * Host folder bound read-only into the sandbox for an execution's tool broker (its socket is made
   * there when the execution starts, also for a pooled slot made ahead).
   */
  toolsDir: string;
}

/** The cgroup limits of a run: the process limit plus our own few processes. */
export const cgroupLimits = (limits: ExecutionLimits, extraBytes = 0) => ({
  memoryBytes: limits.memoryBytes + extraBytes,
  maxProcesses: limits.maxProcesses + OWN_PROCESSES,
});

/**
 * Opens a slot: work dir (tmpfs of `diskBytes` when allowed), cgroup.
 * @throws {Error} when the kernel refuses the cgroup or the mount (everything made so far is undone)
 */
export async function openSlot(iso: Isolation, limits: ExecutionLimits, diskBytes: number): Promise<Slot> {
  const hostId = iso.randomUid ? randomInt(SANDBOX_UID_MIN, SANDBOX_UID_MAX) : null;
  const workDir = await mkdtemp(join(iso.workRoot, 'run-'));
  const slot: Slot = { hostId, workDir, cgroup: null, tmpfs: false, diskBytes, toolsDir: `${workDir}.tools` };
  track(slot);
  try {
    await mkdir(slot.toolsDir, { mode: 0o711 });
    await chmod(slot.toolsDir, 0o711); // the sandbox's uid reaches the socket by name; it cannot list
    if (iso.tmpfs) {
      await mountWorkDir(workDir, diskBytes, hostId, (child) => (slot.mounting = child));
      slot.mounting = undefined;
      slot.tmpfs = true;
    } else if (hostId !== null) {
      await chown(workDir, hostId, hostId);
    }
    if (iso.cgroups.mode !== 'none') {
      slot.cgroup = RunCgroup.create(iso.cgroups, `code-agent-${process.pid}-${randomUUID().slice(0, 8)}`, cgroupLimits(limits));
    }
    return slot;
  } catch (err) {
    await closeSlot(slot, { warn: () => {} });
    throw err;
  }
}

/**
 * Room a pooled slot's work dir keeps for the job's inputs (its budget is set before they are
 * known), in bytes; a job with more input bytes has its tmpfs resized (a remount).
 */
export const POOL_INPUT_ALLOWANCE = 4 * 1024 * 1024;

/** Grows the work dir budget of an open slot to `diskBytes` (a remount) when it was mounted smaller. */
export async function resizeSlot(slot: Slot, diskBytes: number): Promise<void> {
  if (slot.tmpfs && diskBytes > slot.diskBytes) {
    await resizeWorkDir(slot.workDir, diskBytes);
    slot.diskBytes = diskBytes;
  }
}

/** Kills what is left in the cgroup, removes it, unmounts and removes the work dir. Never throws. */
export async function closeSlot(slot: Slot, logger: { warn(msg: string): void }): Promise<void> {
  try {
    await rm(slot.toolsDir, { recursive: true, force: true }).catch(() => undefined);
    await slot.cgroup?.removeAsync();
    if (slot.tmpfs) {
      await unmountWorkDir(slot.workDir);
      if (await rmdir(slot.workDir).then(() => true, () => false)) return; // the tmpfs held everything
    }
    await removeTree(slot.workDir, logger);
  } finally {
    untrack(slot);
  }
}

/** {@link closeSlot} for a process that is exiting (no event loop left). Never throws. */
export function closeSlotSync(slot: Slot): void {
  untrack(slot);
  slot.cgroup?.remove();
  try {
    rmSync(slot.toolsDir, { recursive: true, force: true });
    if (slot.tmpfs || slot.mounting) unmountWorkDirSync(slot.workDir, slot.mounting);
    rmSync(slot.workDir, { recursive: true, force: true });
  } catch {
    /* best effort at exit */
  }
}

/**
 * Slots open in this process: every one is closed when the process exits at the latest, even one
 * a pool was still opening or a teardown had not finished (exit-cleanup.ts, before the temp folder
 * that holds them is removed).
 */
const openSlots = new Set<Slot>();
let unhookExit: (() => void) | null = null;

function track(slot: Slot): void {
  if (openSlots.size === 0) unhookExit = atExit('sandbox', () => [...openSlots].forEach(closeSlotSync));
  openSlots.add(slot);
}

function untrack(slot: Slot): void {
  if (!openSlots.delete(slot) || openSlots.size > 0) return;
  unhookExit?.();
  unhookExit = null;
}

