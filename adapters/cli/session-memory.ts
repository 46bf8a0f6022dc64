/**
 * `/remember <text>` and `/memory [forget <id>]` in the interactive session: the terminal's own
 * memory (conversation `cli:local`), through the same commands as chat (src/memory/commands.ts).
 */
import type { App } from '../../src/app/app.js';
import { parseMemoryCommand, runMemoryCommand } from '../../src/memory/commands.js';
import { offerAfter, type RunBefore } from '../../src/memory/offer.js';
import type { Run } from '../../src/history/types.js';
import { CLI_CONVERSATION } from './run-command.js';
import { terminalUser } from './terminal-user.js';

/** Carries out the command and prints its reply (the title, then each line indented). */
export async function sessionMemoryCommand(app: App, command: 'remember' | 'memory', args: string, print: (text: string) => void): Promise<void> {
  const memory = app.agent.memory;
  if (!memory?.available) return print('This history store keeps no memory.');
  const parsed = parseMemoryCommand(command, args);
  const reply = 'kind' in parsed ? await runMemoryCommand(memory, CLI_CONVERSATION, terminalUser(), parsed, 'the terminal') : parsed;
  print([reply.title, ...reply.lines.map((l) => `  ${l}`)].join('\n'));
}

/**
 * After an improve turn whose feedback corrected the run's reading (src/memory/offer.ts): the line
 * saying how to keep it for the terminal's next runs; undefined otherwise.
 */
export function offerLine(app: App, before: RunBefore, after: Run | undefined, feedback: string | undefined): string | undefined {
  const memory = app.agent.memory;
  if (!memory?.available) return undefined;
  const offer = offerAfter(before, after, feedback, memory.limits.maxDefinitionChars);
  return offer ? `📌 Remember this for the terminal's next runs? Type: /remember ${offer.sentence}` : undefined;
}
