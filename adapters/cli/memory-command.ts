/**
 * `code-agent memory add <text…> | list [--all] | forget <id>  [--conversation C] [--by NAME] [--json]`:
 * a conversation's channel memory for scripts, read from and written to the store (the terminal's
 * memory by default; a chat channel's with `--conversation`, its id as the history keeps it, e.g.
 * `slack:T1:C1`). Exit 0 done, 1 no such entry, 2 usage (a refused entry: memory full, too long).
 */
import type { Config } from '../../src/config/schema.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { InputError } from '../../src/agent/loop/index.js';
import { ChannelMemory, MemoryEntryError, MemoryFullError } from '../../src/memory/channel-memory.js';
import { entryLine } from '../../src/memory/commands.js';
import { memoryOptions } from '../../src/memory/config.js';
import { CLI_CONVERSATION } from './run-command.js';
import { EXIT } from './errors.js';
import { terminalUser } from './terminal-user.js';

/** Options of the subcommands. */
export interface MemoryCliOptions {
  conversation?: string;
  by?: string;
  json: boolean;
  all?: boolean;
}


/**
 * Runs one subcommand; prints on stdout (`--json`: one JSON object or array).
 * @returns the exit code
 * @throws {InputError} for a refused entry (memory full, empty or too long); `HistoryStartupError` when the store cannot be opened
 */
export async function runMemoryCli(
  config: Config,
  action: 'add' | 'list' | 'forget',
  arg: string,
  opts: MemoryCliOptions,
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<number> {
  const conversation = opts.conversation?.trim() || CLI_CONVERSATION;
  // the terminal's memory is called so in the session; its id is what --conversation takes
  const place = conversation === CLI_CONVERSATION ? `the terminal (${CLI_CONVERSATION})` : conversation;
  const store = await KeyvHistoryStore.open(config.store.url);
  try {
    const memory = new ChannelMemory(store, memoryOptions(config));
    if (action === 'add') {
      let entry;
      try {
        entry = await memory.remember(conversation, arg, opts.by ?? terminalUser());
      } catch (err) {
        if (err instanceof MemoryFullError || err instanceof MemoryEntryError) throw new InputError(err.message);
        throw err;
      }
      out(opts.json ? `${JSON.stringify(entry)}\n` : `remembered ${entry.id} for ${place}: ${entry.text}\n`);
      return EXIT.success;
    }
    if (action === 'list') {
      const entries = await memory.list(conversation, Boolean(opts.all));
      if (opts.json) out(`${JSON.stringify(entries)}\n`);
      else out(entries.length ? `${entries.map(entryLine).join('\n')}\n` : `the memory of ${place} is empty\n`);
      return EXIT.success;
    }
    const entry = await memory.forget(conversation, arg, opts.by ?? terminalUser());
    if (!entry) {
      const gone = await memory.forgotten(conversation, arg);
      const why = gone ? `${gone.id} of ${place} was forgotten already, by ${gone.removedBy ?? 'someone'}` : `no entry ${arg} in the memory of ${place}`;
      if (opts.json) out(`${JSON.stringify({ error: why })}\n`);
      else process.stderr.write(`code-agent: ${why}${gone ? '' : ' (memory list shows them)'}\n`);
      return EXIT.failed;
    }
    out(opts.json ? `${JSON.stringify(entry)}\n` : `forgot ${entry.id} of ${place}: ${entry.text}\n`);
    return EXIT.success;
  } finally {
    await store.close();
  }
}
