/**
 * `code-agent run` on a terminal: when the run ended with candidate answers, the same question as
 * the session's (settle-commands.ts): which is right, or neither (then what is wrong, which
 * improves the run in the same process). Enter, or the end of input, leaves it unsettled.
 */
import { createInterface } from 'node:readline';
import type { Agent } from '../../src/agent/loop/index.js';
import type { Run } from '../../src/history/types.js';
import { createRenderer } from './render.js';
import { describeError } from './errors.js';
import { applyChoice, candidateLines, CHOICE_PROMPT, typedChoice } from './settle-commands.js';

/** One line read from `input` after `question`; '' at the end of input. */
function askLine(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: false });
    let answered = false;
    output.write(question);
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.once('close', () => {
      if (!answered) resolve('');
    });
  });
}

/**
 * Asks for a choice when `run` awaits one (else returns it unchanged), applies it, and on `neither`
 * asks what is wrong and improves the run with it.
 * @returns the run as it ended
 */
export async function askChoice(agent: Agent, run: Run, input: NodeJS.ReadableStream, output: NodeJS.WritableStream, signal: AbortSignal): Promise<Run> {
  const lines = candidateLines(run);
  if (lines.length === 0) return run;
  const print = (l: string) => output.write(`${l}\n`);
  lines.forEach(print);
  for (;;) {
    const text = (await askLine(input, output, CHOICE_PROMPT)).trim();
    if (text === '') {
      print('Left unsettled: pick later in the session (/history, /open, /pick).');
      return run;
    }
    try {
      const done = await applyChoice(agent, run, typedChoice(text), print);
      if (!done.wantsReply) return done.run;
      const feedback = (await askLine(input, output, 'what is wrong? > ')).trim();
      if (feedback === '') return done.run;
      const render = createRenderer({ progress: print, detail: print });
      return await agent.improve(done.run, feedback, { signal, onEvent: render });
    } catch (err) {
      print(`Error: ${describeError(err)}`);
    }
  }
}
