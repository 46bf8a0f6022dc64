/**
 * The interactive terminal session: `/generate /run /execute /improve [feedback] /show /history
 * /save <file> /help /exit`. Text without a slash is a `/run`. Ctrl-C cancels the current step,
 * not the session.
 */
import { createInterface } from 'node:readline';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import ora, { type Ora } from 'ora';
import { createApp, type App, type AppOverrides } from '../../src/app/app.js';
import type { Config } from '../../src/config/schema.js';
import type { Run } from '../../src/history/types.js';
import { InputError } from '../../src/agent/agent.js';
import { createRenderer, formatCode } from './render.js';
import { CLI_CONVERSATION } from './run-command.js';
import { EXIT, describeError } from './errors.js';
import { madeAttempts } from '../../src/agent/verdict.js';
import { STATUS_ICON } from '../../src/chat/format.js';

/** Help text of the session. */
export const SESSION_HELP = `Commands:
  /run <requirement>       generate code, execute it, fix it until it works (plain text does the same)
  /generate <requirement>  generate code without executing it
  /execute                 execute the current code again
  /improve [feedback]      improve the current code (from your feedback, or from its last error)
  /show                    show the current code
  /history                 list this terminal's past runs, numbered
  /open <n>                make run n of /history the current one (then /show, /execute, /improve)
  /save <file>             write the current code to a file
  /help                    this help
  /exit                    leave (Ctrl-D too); Ctrl-C cancels the current step`;

/** Options of {@link startSession}. */
export interface SessionOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  overrides?: AppOverrides;
}

/**
 * Runs the interactive session until `/exit` or end of input.
 * @returns the exit code (0).
 */
export async function startSession(config: Config, options: SessionOptions = {}): Promise<number> {
  const output = options.output ?? process.stdout;
  const app = await createApp(config, options.overrides);
  const isTty = Boolean((output as NodeJS.WriteStream).isTTY);
  const rl = createInterface({ input: options.input ?? process.stdin, output, terminal: isTty });
  const print = (text: string) => output.write(`${text}\n`);
  // discardStdin: false — ora would otherwise pause stdin when it stops, ending the session
  const spinner = isTty ? ora({ stream: output as NodeJS.WriteStream, discardStdin: false }) : undefined;
  const session = new Session(app, print, spinner);

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
      rl.prompt();
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    rl.close();
    await app.close();
  }
  return EXIT.success;
}

/** State of one session: the current run and the step in progress. */
class Session {
  private current: Run | undefined;
  private controller: AbortController | undefined;

  constructor(
    private readonly app: App,
    private readonly print: (text: string) => void,
    private readonly spinner: Ora | undefined,
  ) {}

  /** Cancels the step in progress. @returns false when nothing was running. */
  cancel(): boolean {
    if (!this.controller) return false;
    this.controller.abort();
    return true;
  }

  /** Handles one input line. @returns false when the session should end. */
  async handle(line: string): Promise<boolean> {
    const text = line.trim();
    if (text === '') return true;
    const [, command = '', rest = ''] = /^\/(\S+)\s*([\s\S]*)$/.exec(text) ?? [, 'run', text];
    try {
      switch (command) {
        case 'exit':
        case 'quit':
          return false;
        case 'help':
          this.print(SESSION_HELP);
          break;
        case 'run':
          await this.step((o) => this.app.agent.run(CLI_CONVERSATION, rest, o));
          break;
        case 'generate':
          await this.step((o) => this.app.agent.generate(CLI_CONVERSATION, rest, o));
          break;
        case 'execute':
          await this.step((o) => this.app.agent.execute(this.requireRun(), o));
          break;
        case 'improve':
          await this.step((o) => this.app.agent.improve(this.requireRun(), rest || undefined, o));
          break;
        case 'show':
          this.print(formatCode(latestCode(this.requireRun())));
          break;
        case 'history':
          await this.history();
          break;
        case 'open':
          await this.open(rest);
          break;
        case 'save':
          await this.save(rest);
          break;
        default:
          this.print(`Unknown command /${command}. /help lists the commands.`);
      }
    } catch (err) {
      this.print(`Error: ${describeError(err)}`);
    }
    return true;
  }

  private requireRun(): Run {
    if (!this.current) throw new InputError('no current code yet: start with /run <requirement> or /generate <requirement>');
    return this.current;
  }

  private async step(
    action: (o: { signal: AbortSignal; onEvent: ReturnType<typeof createRenderer> }) => Promise<Run>,
  ): Promise<void> {
    this.controller = new AbortController();
    const render = createRenderer({
      progress: (l) => {
        this.spinner?.stop();
        this.print(l);
        if (this.spinner && /…$/.test(l)) this.spinner.start(l.replace('[Agent] ', ''));
      },
      detail: (t) => {
        this.spinner?.stop();
        this.print(t);
      },
    });
    try {
      this.current = await action({ signal: this.controller.signal, onEvent: render });
    } finally {
      this.spinner?.stop();
      this.controller = undefined;
    }
  }

  private async history(): Promise<void> {
    const runs = await this.app.store.listRuns(CLI_CONVERSATION, 20);
    if (runs.length === 0) {
      this.print('No runs yet.');
      return;
    }
    runs.forEach((run, i) => {
      const n = madeAttempts(run);
      const when = run.createdAt.slice(0, 19).replace('T', ' ');
      this.print(`${String(i + 1).padStart(3)}. ${when}  ${STATUS_ICON[run.status]} ${run.status.padEnd(10)} ${n} attempt${n === 1 ? ' ' : 's'}  ${run.requirement.split('\n')[0]!.slice(0, 80)}`);
    });
  }

  private async open(arg: string): Promise<void> {
    const n = Number(arg);
    if (!Number.isInteger(n) || n < 1) throw new InputError('/open needs the number of a run from /history, e.g. /open 2');
    const run = (await this.app.store.listRuns(CLI_CONVERSATION, n)).at(n - 1);
    if (!run) throw new InputError(`there is no run ${n} in /history`);
    this.current = run;
    this.print(`Run ${n} is now current: ${run.requirement.split('\n')[0]!.slice(0, 80)} (${run.status}). /show, /execute or /improve it.`);
  }

  private async save(file: string): Promise<void> {
    if (!file) throw new InputError('/save needs a file name, e.g. /save program.py');
    const path = resolve(file);
    await writeFile(path, `${latestCode(this.requireRun())}\n`);
    this.print(`Saved the current code to ${path}`);
  }
}

function latestCode(run: Run): string {
  const code = [...run.attempts].reverse().find((a) => a.code)?.code;
  if (!code) throw new InputError('the current run has no code');
  return code;
}
