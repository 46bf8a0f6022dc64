/**
 * The interactive terminal session: `/generate /run /execute /improve [feedback] /show /history
 * /open <n> /attach <file> /detach [name] /save <file> /remember <text> /memory [forget <id>] /programs
 * /program save <name> | <name> [k=v…] | <name> show|remove /help /exit`. Text without a slash is a `/run`.
 * Ctrl-C cancels the current step, not the session.
 */
import { createInterface } from 'node:readline';
import ora from 'ora';
import { createApp, type AppOverrides } from '../../src/app/app.js';
import type { Config } from '../../src/config/schema.js';
import { EXIT } from './errors.js';
import { Session } from './session-state.js';

/** Help text of the session. */
export const SESSION_HELP = `Commands:
  /run <requirement>       generate code, execute it, fix it until it works (plain text does the same)
  /generate <requirement>  generate code without executing it
  /execute                 execute the current code again (in its workspace: its files and the files it wrote)
  /improve [feedback]      improve the current code (from your feedback, or from its last error)
  /show                    show the current code and its workspace (the files its programs find)
  /history                 list the terminal's past runs (code-agent run's too), numbered; a run keeps its number
  /open <n>                make run n of /history the current one (then /show, /execute, /improve)
  /attach <file>           add a file to the current run's workspace and give it to the next runs too
                           (repeat for more; /attach alone lists them)
  /detach [name]           remove a file from the current run's workspace and the attached files
                           (/detach alone: forget the attached files)
  /save [-f] <file>        write the current code to a file (-f: replace an existing file)
  /pick <n|neither>        the current run ended with candidate answers: candidate n is right (no LLM
                           call; the run ends ✅ confirmed by you), or neither is (then say what is wrong)
  /approve                 👍 the current run's answer is right (kept as an example in the terminal's memory)
  /reject [what is wrong]  👎 the current run's answer is wrong (what you type improves it)
  /remember <sentence>     remember a definition for the terminal's next runs (e.g. revenue = units × unit_price)
  /memory [forget <id>]    list what the terminal remembers, or forget an entry
  /programs                list the terminal's team programs (saved runs that run again with no LLM call)
  /program save <name>     save the current run as a team program (a new version when the name exists)
  /program <name> [k=v …]  run a team program (no LLM call) with parameter values; the attached
                           files are its input files, else the files it was saved with
  /program <name> show     its code, inputs, parameters and versions (/program <name> remove: remove it)
  /help                    this help (help alone too)
  /exit                    leave (exit alone, or Ctrl-D, too); Ctrl-C cancels the current step`;

/** Options of {@link startSession}. */
export interface SessionOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  overrides?: AppOverrides;
  /** Folder the files each run writes are copied into (`--out`). */
  outDir?: string;
}

/**
 * Runs the interactive session until `/exit` or end of input.
 * @returns the exit code (0).
 */
export async function startSession(config: Config, options: SessionOptions = {}): Promise<number> {
  const output = options.output ?? process.stdout;
  // a local model loads in the background: /help, /history and /exit answer at once, and the first
  // request finds it loaded (or waits for the rest of the load, never longer than before)
  const app = await createApp(config, { deferLlmLoad: true, metrics: null, ...options.overrides });
  const isTty = Boolean((output as NodeJS.WriteStream).isTTY);
  const rl = createInterface({ input: options.input ?? process.stdin, output, terminal: isTty });
  const print = (text: string) => output.write(`${text}\n`);
  // discardStdin: false — ora would otherwise pause stdin when it stops, ending the session
  const spinner = isTty ? ora({ stream: output as NodeJS.WriteStream, discardStdin: false, isEnabled: true }) : undefined;
  const session = new Session(app, { print, spinner, outDir: options.outDir, help: SESSION_HELP });

  const onInterrupt = () => {
    if (session.cancel()) return;
    print('(nothing to cancel; /exit to leave)');
    rl.prompt();
  };
  rl.on('SIGINT', onInterrupt); // Ctrl-C read by readline from a terminal
  process.on('SIGINT', onInterrupt); // SIGINT sent to the process (e.g. when stdin is not a terminal)
  print(`code-agent — ${app.llm.name}. Type a requirement, or /help.`);
  rl.setPrompt('> ');
  rl.prompt();
  try {
    for await (const line of rl) {
      const keepGoing = await session.handle(line);
      if (!keepGoing) break;
      rl.setPrompt(session.prompt());
      rl.prompt();
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    rl.close();
    await app.close();
  }
  return EXIT.success;
}
