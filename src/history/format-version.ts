/**
 * The store's format version: one number per store (SQLite, Redis, PostgreSQL, the in-process Map),
 * recorded in the backend (`code_agent_meta` row `format_version`; Redis key
 * `code-agent:format-version`), that says which shape its records have. Today's shape is
 * {@link STORE_FORMAT_VERSION}.
 *
 * At start ({@link migrateStore}, called by `KeyvHistoryStore.open`) a process reads the version:
 * - the same as its own: nothing to do;
 * - newer than its own: refused with a {@link StoreVersionError} naming both versions (an older
 *   release would misread or damage records it does not know); nothing is written;
 * - older (or none: a store written before versions existed, or a fresh one): the migrations of
 *   {@link MIGRATIONS} from the version found up to this release's are applied, one at a time.
 *
 * Several processes starting at once: one takes the backend's lease `store-format-migration`
 * (`AtomicOps.lease`, one atomic statement or script), the others wait for it and then read the
 * version it wrote. Each step's version is written by a conditional write (`setFormatVersion`
 * from → to) after the step's migration has finished, and every migration is written to be run
 * again (idempotent): a process killed half-way leaves the version where it was, its lease expires,
 * and the next process to start applies that step again from the beginning.
 *
 * Shipping a change of a record's shape: add a {@link Migration} `{ to: N + 1, … }` to
 * {@link MIGRATIONS}, raise {@link STORE_FORMAT_VERSION}, and add a fixture of version N
 * (test/fixtures/store/) that a test opens with the new release.
 */
import { randomUUID } from 'node:crypto';
import type Keyv from 'keyv';
import type { AtomicOps } from './atomic.js';
import { HistoryError } from './errors.js';

/** The format version this release writes and reads. */
export const STORE_FORMAT_VERSION = 1;

/** What a migration may use: the store's Keyv (namespace `code-agent`) and the backend's atomic operations. */
export interface MigrationContext {
  keyv: Keyv;
  atomics: AtomicOps;
  /** Renews the migration lease: call it at least every {@link MIGRATION_LEASE_MS} / 2 in a long migration. */
  keepAlive(): Promise<void>;
  /** Says what it did, one line (shown on stderr at start). */
  log(message: string): void;
}

/** One step of the store's shape, from version `to - 1` to `to`. `apply` must be safe to run again after a kill midway. */
export interface Migration {
  to: number;
  /** What it changes, in words (logged when applied). */
  what: string;
  /** Not logged when applied (the stamp of an unversioned store: every fresh store gets it). */
  quiet?: boolean;
  apply(context: MigrationContext): Promise<void>;
}

/** Every migration, in order. Version 0 is "no version recorded". */
export const MIGRATIONS: readonly Migration[] = [
  {
    to: 1,
    what: 'record the format version of a store written before versions existed (its records already have the version-1 shape)',
    quiet: true,
    apply: async () => {},
  },
];

/** A store written by a newer release (or one whose migrations this release lacks): refused, nothing written. */
export class StoreVersionError extends HistoryError {
  override name = 'StoreVersionError';
}

/** How long the migrating process holds the lease without renewing it, in ms (a killed one's expires then). */
export const MIGRATION_LEASE_MS = 60_000;

/** The lease's key (in the backend's leases). */
const LEASE_KEY = 'store-format-migration';

/** Options of {@link migrateStore} (tests set them; the defaults are the release's). */
export interface MigrateOptions {
  /** The store's name in messages (its URL without credentials). */
  label: string;
  migrations?: readonly Migration[];
  /** The version to reach. Default {@link STORE_FORMAT_VERSION}. */
  current?: number;
  leaseMs?: number;
  /** How long to wait for another process's migration before failing, in ms. Default 10 minutes. */
  waitMs?: number;
  log?: (message: string) => void;
}

/** What {@link migrateStore} found and left. */
export interface MigrateResult {
  /** The version found (0: none recorded). */
  from: number;
  to: number;
  /** The migrations this process applied (none when another process did them). */
  applied: number[];
}

/**
 * Brings the store to the current version (see the module comment).
 * @throws {StoreVersionError} when the store is newer than this release, or a step has no migration
 * @throws the backend's error when it fails (the version stays at the last step completed)
 */
export async function migrateStore(keyv: Keyv, atomics: AtomicOps, options: MigrateOptions): Promise<MigrateResult> {
  const migrations = options.migrations ?? MIGRATIONS;
  const current = options.current ?? STORE_FORMAT_VERSION;
  const leaseMs = options.leaseMs ?? MIGRATION_LEASE_MS;
  const log = options.log ?? ((m: string) => process.stderr.write(`code-agent: ${m}\n`));
  const until = Date.now() + (options.waitMs ?? 600_000);
  const first = (await atomics.formatVersion()) ?? 0;
  const applied: number[] = [];
  const owner = randomUUID();
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    const found = (await atomics.formatVersion()) ?? 0;
    refuseNewer(found, current, options.label);
    if (found === current) return { from: first, to: current, applied };
    if (await atomics.lease(LEASE_KEY, owner, leaseMs)) break;
    if (Date.now() > until) {
      throw new HistoryError(`${options.label}: another process has been migrating the store from format version ${found} for too long; start again once it is done (or once its lease of ${leaseMs / 1000} s expired, if it was killed)`);
    }
    await new Promise((r) => setTimeout(r, wait));
  }
  try {
    const keepAlive = async () => {
      if (!(await atomics.lease(LEASE_KEY, owner, leaseMs))) throw new HistoryError(`${options.label}: lost the migration lease to another process`);
    };
    for (;;) {
      const version = (await atomics.formatVersion()) ?? 0;
      refuseNewer(version, current, options.label);
      if (version === current) break;
      const step = migrations.find((m) => m.to === version + 1);
      if (!step) throw new StoreVersionError(`${options.label}: no migration from format version ${version} to ${version + 1} in this release`);
      await keepAlive();
      if (!step.quiet) log(`${options.label}: migrating the store from format version ${version} to ${step.to}: ${step.what}`);
      await step.apply({ keyv, atomics, keepAlive, log });
      await keepAlive();
      if (await atomics.setFormatVersion(version === 0 ? undefined : version, step.to)) applied.push(step.to);
    }
  } finally {
    await atomics.release(LEASE_KEY, owner).catch(() => undefined);
  }
  return { from: first, to: current, applied };
}

function refuseNewer(found: number, current: number, label: string): void {
  if (!Number.isInteger(found) || found < 0) {
    throw new StoreVersionError(`${label}: the recorded format version "${found}" is not a version number; the store was left untouched`);
  }
  if (found > current) {
    throw new StoreVersionError(
      `${label} has format version ${found}, newer than this code-agent's ${current}: a newer release wrote it. ` +
        `Run a release that reads version ${found} (every process on one store needs it), or set store.url to another store. Nothing was changed.`,
    );
  }
}
