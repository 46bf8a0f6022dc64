/**
 * The interactive session's team program commands: `/programs`, `/program save <name>` (the
 * current run), `/program <name> show|remove`, and `/program <name> [k=v…]` (a new run of the
 * program, no LLM call: the attached files are its input files, else the files it was saved with).
 * `/save <file>` keeps its meaning (the code to a file).
 */
import type { App } from '../../src/app/app.js';
import type { CallOptions } from '../../src/agent/loop/index.js';
import type { Run } from '../../src/history/types.js';
import { InputError } from '../../src/config/errors.js';
import { parseProgramCommand } from '../../src/chat/program-commands.js';
import { CLI_CONVERSATION } from './run-command.js';
import { terminalUser } from './terminal-user.js';
import { listLines, savedLines, showLines, TERMINAL_SPELLING } from './program-lines.js';

/** What the command needs of the session. */
export interface SessionProgramDeps {
  app: App;
  print(text: string): void;
  /** The current run, if any (what `/program save` saves). */
  current(): Run | undefined;
  /** Runs an agent call as a new run (renderer, cancel, the attached files). */
  step(action: (o: CallOptions) => Promise<Run>): Promise<void>;
}

/** `/programs` (`command` `programs`) or `/program …`. */
export async function sessionProgramCommand(deps: SessionProgramDeps, command: 'programs' | 'program', rest: string): Promise<void> {
  const { app, print } = deps;
  const programs = app.agent.programs;
  const parsed = parseProgramCommand(command === 'programs' ? '' : rest);
  switch (parsed.kind) {
    case 'list':
      return listLines(await programs.list(CLI_CONVERSATION), TERMINAL_SPELLING.session).forEach((l) => print(l));
    case 'usage':
      return print('Use /programs to list the team programs, /program save <name> to save the current run as one, /program <name> [param=value …] to run one, /program <name> show or /program <name> remove.');
    case 'save': {
      const run = deps.current();
      if (!run) throw new InputError('no current run to save: run one first (/run <requirement>), or /open one from /history');
      const saved = await programs.save(CLI_CONVERSATION, run.id, parsed.name, { id: terminalUser() });
      return savedLines(saved, run).forEach((l) => print(l));
    }
    case 'show': {
      const program = await programs.get(CLI_CONVERSATION, parsed.name);
      if (!program) throw new InputError(`no team program ${parsed.name} here (/programs lists them)`);
      return showLines(program).forEach((l) => print(l));
    }
    case 'remove': {
      const removed = await programs.remove(CLI_CONVERSATION, parsed.name, { id: terminalUser() });
      if (!removed) throw new InputError(`no team program ${parsed.name} here (/programs lists them)`);
      return print(`Removed team program ${removed.name} (v${removed.versions.at(-1)!.version}); who removed it and when is kept.`);
    }
    case 'run': {
      const prepared = await programs.prepare(CLI_CONVERSATION, parsed.name, parsed.args);
      return deps.step((o) => app.agent.runProgram(CLI_CONVERSATION, prepared, o));
    }
    default:
      return unknown(parsed);
  }
}

function unknown(command: never): never {
  throw new Error(`unknown program command: ${JSON.stringify(command)}`);
}
