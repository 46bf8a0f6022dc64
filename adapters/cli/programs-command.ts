/**
 * `code-agent programs list | show <name> | remove <name>  [--conversation C] [--by NAME] [--json]`:
 * a conversation's team programs for scripts, read from and changed in the store (the terminal's
 * by default; a chat channel's with `--conversation`, its id as the history keeps it, e.g.
 * `slack:T1:C1`). Running one is `code-agent run --program <name>`. Exit 0 done, 1 no such program.
 */
import type { Config } from '../../src/config/schema.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { TeamPrograms } from '../../src/programs/team-programs.js';
import { CLI_CONVERSATION } from './run-command.js';
import { EXIT } from './errors.js';
import { terminalUser } from './terminal-user.js';
import { listLines, showLines, TERMINAL_SPELLING } from './program-lines.js';

/** Options of the subcommands. */
export interface ProgramsCliOptions {
  conversation?: string;
  by?: string;
  json: boolean;
}

/**
 * Runs one subcommand; prints on stdout (`--json`: one JSON value).
 * @returns the exit code
 * @throws `HistoryStartupError` when the store cannot be opened
 */
export async function runProgramsCli(
  config: Config,
  action: 'list' | 'show' | 'remove',
  name: string,
  opts: ProgramsCliOptions,
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<number> {
  const conversation = opts.conversation?.trim() || CLI_CONVERSATION;
  const place = conversation === CLI_CONVERSATION ? `the terminal (${CLI_CONVERSATION})` : conversation;
  const store = await KeyvHistoryStore.open(config.store.url);
  try {
    const programs = new TeamPrograms({ store });
    if (action === 'list') {
      const listed = await programs.list(conversation);
      out(opts.json ? `${JSON.stringify(listed)}\n` : `${listLines(listed, { ...TERMINAL_SPELLING.scripts, where: place }).join('\n')}\n`);
      return EXIT.success;
    }
    const found = action === 'show' ? await programs.get(conversation, name) : await programs.remove(conversation, name, { id: opts.by ?? terminalUser() });
    if (!found) {
      const why = `no team program ${name} in ${place}`;
      if (opts.json) out(`${JSON.stringify({ error: why })}\n`);
      else process.stderr.write(`code-agent: ${why} (code-agent programs list${conversation === CLI_CONVERSATION ? '' : ` --conversation ${conversation}`} shows them)\n`);
      return EXIT.failed;
    }
    if (opts.json) out(`${JSON.stringify(found)}\n`);
    else if (action === 'show') out(`${showLines(found).join('\n')}\n`);
    else out(`removed team program ${found.name} (v${found.versions.at(-1)!.version}) of ${place}; kept for the audit, by ${found.removedBy}\n`);
    return EXIT.success;
  } finally {
    await store.close();
  }
}
