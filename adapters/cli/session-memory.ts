/**
 * `/remember <text>` and `/memory [forget <id>]` in the interactive session: the terminal's own
 * memory (conversation `cli:local`), through the same commands as chat (src/memory/commands.ts).
 */
import type { App } from '../../src/app/app.js';
import { parseMemoryCommand, runMemoryCommand } from '../../src/memory/commands.js';
import { CLI_CONVERSATION } from './run-command.js';
import { terminalUser } from './memory-command.js';

/** Carries out the command and prints its reply (the title, then each line indented). */
export async function sessionMemoryCommand(app: App, command: 'remember' | 'memory', args: string, print: (text: string) => void): Promise<void> {
  const memory = app.agent.memory;
  if (!memory?.available) return print('This history store keeps no memory.');
  const parsed = parseMemoryCommand(command, args);
  const reply = 'kind' in parsed ? await runMemoryCommand(memory, CLI_CONVERSATION, terminalUser(), parsed, 'the terminal') : parsed;
  print([reply.title, ...reply.lines.map((l) => `  ${l}`)].join('\n'));
}
