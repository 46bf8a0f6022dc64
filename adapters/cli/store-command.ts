/**
 * `code-agent store …`: the history store as a whole (docs/store.md).
 * - `store export [--conversation C] [--since D]`: every record as JSONL on stdout
 * - `store import <dump> [--json]`: a dump into the configured store; counts per kind, what was skipped and why
 * - `store forget --conversation C (--thread T | --run R) [--json]`: one run, its files, outputs and thread links
 * - `store version`: the store's format version and this release's
 * Exit 0 done, 1 a refused dump or nothing to forget, 2 usage or config error.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { Config } from '../../src/config/schema.js';
import { InputError } from '../../src/config/errors.js';
import type { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import type { ImportReport } from '../../src/history/transfer/import.js';
import { sinceDay, UsageInputError } from '../../src/usage/report.js';
import { configOption } from './help-text.js';
import { EXIT } from './errors.js';
import { resolve, join } from 'node:path';

/** Loads the config from a command's options (main.ts's, with the program's own `--config`). */
export type ConfigLoader = (opts: { config?: string }) => Promise<Config>;

/** Adds `store export|import|forget|version` to the program. */
export function addStoreCommands(program: Command, load: ConfigLoader): void {
  const store = program.command('store').description('the history store as a whole: export, import, forget a run, its format version (docs/store.md)').helpCommand('help [command]', 'print the help of a command');
  const withConfig = (c: Command) => c.addOption(configOption()).exitOverride();
  withConfig(store.command('export').description('every record (runs, threads, workspaces with their files, memory, usage, team programs) as JSON lines on stdout'))
    .option('--conversation <id>', 'one conversation only, its id as the history keeps it (e.g. slack:T1:C1)')
    .option('--since <span>', 'only runs changed since, and usage of days since: 30d, 4w, or a date (2025-01-31), UTC')
    .action(async (opts: { config?: string; conversation?: string; since?: string }) => {
      process.exitCode = await runExport(await load(opts), opts);
    });
  withConfig(store.command('import').description('put a dump made by store export into the configured store (running it twice changes nothing)').argument('<dump>', 'the JSONL file'))
    .option('--json', 'print the report as one JSON object')
    .action(async (file: string, opts: { config?: string; json?: boolean }) => {
      process.exitCode = await runImport(await load(opts), file, Boolean(opts.json));
    });
  withConfig(store.command('forget').description("delete one thread's run: its record, workspace files, outputs and thread links"))
    .requiredOption('--conversation <id>', 'the conversation id as the history keeps it (e.g. slack:T1:C1, cli:local)')
    .addOption(new Option('--thread <key>', "the run's thread (Slack: the thread's ts; Discord: the thread id)").conflicts('run'))
    .option('--run <id>', 'the run id (as /history shows it)')
    .option('--json', 'print what was deleted as one JSON object')
    .action(async (opts: { config?: string; conversation: string; thread?: string; run?: string; json?: boolean }) => {
      process.exitCode = await runForget(await load(opts), opts);
    });
  withConfig(store.command('version').description("the store's format version and the one this release writes")).action(async (opts: { config?: string }) => {
    const config = await load(opts);
    const { STORE_FORMAT_VERSION } = await import('../../src/history/format-version.js');
    const opened = await openStore(config);
    try {
      process.stdout.write(`store format version ${String(await opened.formatVersion())} (this release writes ${STORE_FORMAT_VERSION})\n`);
    } finally {
      await opened.close();
    }
  });
}

async function openStore(config: Config): Promise<KeyvHistoryStore> {
  const { KeyvHistoryStore } = await import('../../src/history/keyv-store.js');
  return KeyvHistoryStore.open(config.store.url);
}

/** Writes the dump on stdout, waiting for the pipe to drain (it streams: one record in memory at a time). */
async function runExport(config: Config, opts: { conversation?: string; since?: string }): Promise<number> {
  let since: string | undefined;
  try {
    since = opts.since !== undefined ? `${sinceDay(opts.since)}T00:00:00.000Z` : undefined;
  } catch (err) {
    if (err instanceof UsageInputError) throw new InputError(err.message);
    throw err;
  }
  const { storeKind } = await import('../../src/history/backends.js');
  const { exportDump } = await import('../../src/history/transfer/export.js');
  const store = await openStore(config);
  try {
    for await (const line of exportDump(store, { conversation: opts.conversation, since, source: storeKind(config.store.url) })) {
      if (!process.stdout.write(line)) await once(process.stdout, 'drain');
    }
  } finally {
    await store.close();
  }
  return EXIT.success;
}

async function runImport(config: Config, file: string, json: boolean): Promise<number> {
  if (!existsSync(file)) throw new InputError(`store import: there is no file ${file}`);
  const { importDump } = await import('../../src/history/transfer/import.js');
  const store = await openStore(config);
  let report: ImportReport;
  try {
    report = await importDump(store, resolve(file));
  } finally {
    await store.close();
  }
  if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    const lines = Object.entries(report.kinds).map(([kind, c]) => `  ${kind}: ${c.imported} imported, ${c.unchanged} already there, ${c.skipped} skipped`);
    const skipped = report.skipped.map((s) => `  line ${s.line} (${s.kind}): ${s.why}`);
    process.stdout.write(`imported ${file} (${report.records} records, SHA-256 ${report.sha256}):\n${lines.join('\n')}\n${skipped.length ? `skipped:\n${skipped.join('\n')}\n` : ''}`);
  }
  return EXIT.success;
}

async function runForget(config: Config, opts: { conversation: string; thread?: string; run?: string; json?: boolean }): Promise<number> {
  if (!opts.thread && !opts.run) throw new InputError('store forget: say which run, with --thread <key> or --run <id>');
  const { forgetRun } = await import('../../src/history/retention.js');
  const store = await openStore(config);
  try {
    const runId = opts.run ?? (await store.threadRunId(opts.conversation, opts.thread!));
    if (runId === undefined) {
      process.stderr.write(`code-agent: no run is linked to thread ${opts.thread} in ${opts.conversation}\n`);
      return EXIT.failed;
    }
    const done = await forgetRun(store, opts.conversation, runId, join(resolve(config.store.data_dir), 'artifacts'));
    if (!done.run && done.threads.length === 0) {
      process.stderr.write(`code-agent: no run ${runId} in ${opts.conversation}\n`);
      return EXIT.failed;
    }
    if (opts.json) process.stdout.write(`${JSON.stringify({ conversation: opts.conversation, runId, deleted: done.run, files: done.files, threads: done.threads })}\n`);
    else process.stdout.write(`deleted run ${runId} of ${opts.conversation}: ${done.files} workspace file(s), its outputs, ${done.threads.length} thread link(s)\n`);
    return EXIT.success;
  } finally {
    await store.close();
  }
}
