/**
 * `code-agent memory|schedules|programs …`: what a team keeps in the store, read and changed from
 * the terminal (docs/memory.md, docs/schedules.md, docs/programs.md): a channel's memory, the
 * schedules of team programs, and the team programs. Each command loads its module when it runs.
 */
import type { Command } from 'commander';
import { configOption } from './help-text.js';
import type { ConfigLoader } from './store-command.js';

/** Adds `memory add|list|forget`, `schedules list` and `programs list|show|remove` to the program. */
export function addTeamCommands(program: Command, load: ConfigLoader): void {
  const memory = program
    .command('memory')
    .description("a channel's memory (definitions and approved examples given to its runs): the terminal's, or a chat channel's with --conversation (docs/memory.md)")
    .helpCommand('help [command]', 'print the help of a command');
  const memoryOptionsOf = (command: Command) =>
    command
      .addOption(configOption())
      .option('--conversation <id>', "whose memory: a conversation id as the history keeps it (e.g. slack:T1:C1); default the terminal's (cli:local)")
      .option('--json', 'print JSON instead of lines')
      .exitOverride();
  const memoryAction = (action: 'add' | 'list' | 'forget') => async (arg: string | string[] | Record<string, unknown>, maybeOpts?: Record<string, unknown>) => {
    const opts = (action === 'list' ? arg : maybeOpts) as { config?: string; conversation?: string; json?: boolean; by?: string; all?: boolean };
    const text = action === 'list' ? '' : Array.isArray(arg) ? arg.join(' ') : String(arg);
    const { runMemoryCli } = await import('./memory-command.js');
    process.exitCode = await runMemoryCli(await load(opts), action, text, { conversation: opts.conversation, by: opts.by, json: Boolean(opts.json), all: Boolean(opts.all) });
  };
  memoryOptionsOf(memory.command('add').description('remember a definition (one short sentence), e.g. memory add "revenue = units × unit_price"').argument('<text...>', 'the definition'))
    .option('--by <name>', 'who adds it (default terminal:<login>)')
    .action(memoryAction('add'));
  memoryOptionsOf(memory.command('list').description('the live entries, oldest first'))
    .option('--all', 'also the forgotten ones, with who removed them and when')
    .action(memoryAction('list'));
  memoryOptionsOf(memory.command('forget').description('forget an entry by its id (m12): later runs no longer get it; who removed it is kept').argument('<id>', 'the entry id'))
    .option('--by <name>', 'who removes it (default terminal:<login>)')
    .action(memoryAction('forget'));

  const schedules = program
    .command('schedules')
    .description("the schedules of team programs in the store (docs/schedules.md); chat channels make them with /schedule")
    .helpCommand('help [command]', 'print the help of a command');
  schedules
    .command('list')
    .description("every schedule in the store, or one conversation's, with its next tick")
    .addOption(configOption())
    .option('--conversation <id>', 'one conversation, its id as the history keeps it (e.g. slack:T1:C1)')
    .option('--json', 'print JSON instead of lines')
    .exitOverride()
    .action(async (opts: { config?: string; conversation?: string; json?: boolean }) => {
        const { runSchedulesCli } = await import('./schedules-command.js');
      process.exitCode = await runSchedulesCli(await load(opts), { ...(opts.conversation ? { conversation: opts.conversation } : {}), json: Boolean(opts.json) });
    });
  const programs = program
    .command('programs')
    .description("team programs (saved runs that run again with no LLM call): the terminal's, or a chat channel's with --conversation (docs/programs.md)")
    .helpCommand('help [command]', 'print the help of a command');
  const programsOptionsOf = (command: Command) =>
    command
      .addOption(configOption())
      .option('--conversation <id>', "whose programs: a conversation id as the history keeps it (e.g. slack:T1:C1); default the terminal's (cli:local)")
      .option('--json', 'print JSON instead of lines')
      .exitOverride();
  const programsAction = (action: 'list' | 'show' | 'remove') => async (arg: string | Record<string, unknown>, maybeOpts?: Record<string, unknown>) => {
    const opts = (action === 'list' ? arg : maybeOpts) as { config?: string; conversation?: string; json?: boolean; by?: string };
    const { runProgramsCli } = await import('./programs-command.js');
    process.exitCode = await runProgramsCli(await load(opts), action, action === 'list' ? '' : String(arg), { conversation: opts.conversation, by: opts.by, json: Boolean(opts.json) });
  };
  programsOptionsOf(programs.command('list').description('the live programs, by name, with their current version and parameters')).action(programsAction('list'));
  programsOptionsOf(programs.command('show').description('one program: its code, inputs, parameters and versions (who approved each, when)').argument('<name>', 'the program')).action(programsAction('show'));
  programsOptionsOf(programs.command('remove').description('remove a program (no longer listed nor runnable; who removed it and when is kept)').argument('<name>', 'the program'))
    .option('--by <name>', 'who removes it (default terminal:<login>)')
    .action(programsAction('remove'));
}
