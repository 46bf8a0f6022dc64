/**
 * One interactive session's state and commands: the current run (and its workspace, kept in the
 * history store), the attached input files given to new runs, the step in progress (cancellable),
 * and the answer awaited after a bare `/improve`.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import type { Ora } from 'ora';
import type { App } from '../../src/app/app.js';
import type { Run } from '../../src/history/types.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { InputError } from '../../src/config/errors.js';
import type { CallOptions } from '../../src/agent/loop/index.js';
import { prepareInputs, withInputFilesNote } from '../../src/chat/input-note.js';
import { createRenderer, formatCode } from './render.js';
import { workspaceEntryText } from '../../src/text/workspace-entry.js';
import { formatBytes } from '../../src/text/bytes.js';
import { CLI_CONVERSATION } from './run-command.js';
import { describeError } from './errors.js';
import { readInputFiles } from './input-files.js';
import { copiedLine, copyArtifacts } from './out-dir.js';
import { fitColumns, historyRow, numberedRuns, ROW_COLUMNS } from './history-rows.js';
import { runOutcome } from './outcome.js';
import { applyChoice, candidateLines, CHOICE_PROMPT, isTypedChoice, typedChoice } from './settle-commands.js';
import { NEW_PROGRAM_FEEDBACK, ranMatchedProgram, type ChoiceAction } from '../../src/chat/settle-view.js';
import { offerLine, sessionMemoryCommand } from './session-memory.js';
import { runBefore } from '../../src/memory/offer.js';
import { sessionProgramCommand } from './session-programs.js';

/** `/improve write a new program` (what a team program found for the request says to type). */
const NEW_PROGRAM_TYPED = /^write a new program\.?$/i;

/** Runs listed by `/history` (the newest; numbers stay those of the whole history). */
export const HISTORY_ROWS = 20;

/**
 * Words that alone on a line are the command, not a requirement: what people type first in a
 * prompt they do not know yet (no program is ever wanted for them).
 */
const BARE_COMMANDS: ReadonlyMap<string, string> = new Map([
  ['help', 'help'],
  ['?', 'help'],
  ['exit', 'exit'],
  ['quit', 'exit'],
]);

/** Where the session writes and what it was started with. */
export interface SessionIo {
  print(text: string): void;
  /** A spinner on a terminal; none when output is not a terminal. */
  spinner?: Ora;
  /** `--out`: folder the files each run writes are copied into. */
  outDir?: string;
  help: string;
}

/** State of one session: the current run, attached files and the step in progress. */
export class Session {
  private current: Run | undefined;
  private controller: AbortController | undefined;
  private attached: InputFile[] = [];
  private awaitingFeedback = false;
  /** A run ended with candidates: the next line is the choice (see settle-commands.ts). */
  private awaitingChoice = false;

  constructor(
    private readonly app: App,
    private readonly io: SessionIo,
  ) {}

  /** Cancels the step in progress. @returns false when nothing was running. */
  cancel(): boolean {
    if (!this.controller) return false;
    this.controller.abort();
    return true;
  }

  /** The prompt to show next (`what should change? ` after a bare `/improve` on a successful run). */
  prompt(): string {
    if (this.awaitingChoice) return CHOICE_PROMPT;
    return this.awaitingFeedback ? 'what should change? > ' : '> ';
  }

  /** Handles one input line. @returns false when the session should end. */
  async handle(line: string): Promise<boolean> {
    const text = line.trim();
    if (this.awaitingFeedback && !text.startsWith('/')) {
      this.awaitingFeedback = false;
      if (text === '') this.io.print('Nothing changed.');
      else await this.guarded(() => this.improveWith(this.requireRun(), text));
      return true;
    }
    this.awaitingFeedback = false;
    if (this.awaitingChoice && !text.startsWith('/')) {
      this.awaitingChoice = false;
      if (text !== '' && isTypedChoice(text)) {
        await this.guarded(() => this.choose(() => typedChoice(text)));
        return true;
      }
      this.io.print('Left unsettled: /pick <n> chooses later.');
      // a line that is no choice (typed ahead) is taken as usual: a request or a command
      if (text === '') return true;
    }
    this.awaitingChoice = false;
    if (text === '') return true;
    const bare = BARE_COMMANDS.get(text.toLowerCase());
    const [, command = '', rest = ''] = /^\/(\S+)\s*([\s\S]*)$/.exec(text) ?? (bare ? [, bare, ''] : [, 'run', text]);
    if (command === 'exit' || command === 'quit') return false;
    await this.guarded(() => this.command(command, rest));
    return true;
  }

  private async guarded(action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (err) {
      this.io.print(`Error: ${describeError(err)}`);
    }
  }

  private async command(command: string, rest: string): Promise<void> {
    switch (command) {
      case 'help':
        return this.io.print(this.io.help);
      case 'run':
        return this.step((o) => this.runOrProgram(rest, o), true);
      case 'generate':
        return this.step((o) => this.app.agent.generate(CLI_CONVERSATION, this.withNote(rest, o), o), true);
      case 'execute':
        return this.step((o) => this.app.agent.execute(this.requireRun(), o));
      case 'improve':
        return this.improve(rest);
      case 'show':
        return this.show();
      case 'history':
        return this.history();
      case 'open':
        return this.open(rest);
      case 'attach':
        return this.attach(rest);
      case 'detach':
        return this.detach(rest);
      case 'save':
        return this.save(rest);
      case 'pick':
        return this.choose(() => typedChoice(rest));
      case 'approve':
        return this.choose(() => ({ kind: 'approve', verdict: 'up' }));
      case 'reject':
        return this.choose(() => ({ kind: 'approve', verdict: 'down' }), rest);
      case 'remember':
      case 'memory':
        return sessionMemoryCommand(this.app, command, rest, (t) => this.io.print(t));
      case 'programs':
      case 'program':
        return sessionProgramCommand({ app: this.app, print: (t) => this.io.print(t), current: () => this.current, step: (action) => this.step(action, true) }, command, rest);
      default:
        return this.io.print(`Unknown command /${command}. /help lists the commands.`);
    }
  }

  /** A choice among the candidates, or a 👍/👎, on the current run; `neither` and 👎 improve it with `feedback`, or ask for it. */
  private async choose(action: () => ChoiceAction, feedback = ''): Promise<void> {
    const done = await applyChoice(this.app.agent, this.requireRun(), action(), this.io.print);
    this.current = done.run;
    if (!done.wantsReply) return;
    if (feedback.trim()) return this.step((o) => this.app.agent.improve(done.run, feedback.trim(), o));
    this.awaitingFeedback = true;
    this.io.print('What is wrong? (type it on the next line; it improves the run; an empty line leaves it)');
  }

  private requireRun(): Run {
    if (!this.current) throw new InputError('no current code yet: start with /run <requirement> or /generate <requirement>');
    return this.current;
  }

  /**
   * A new run of a requirement; one that a team program of the terminal answers in other words runs
   * that program at once, named (as in chat and `code-agent run`): `/improve write a new program`
   * then has the agent write one.
   */
  private async runOrProgram(requirement: string, o: CallOptions): Promise<Run> {
    const found = await this.app.agent.findProgram(CLI_CONVERSATION, requirement, (o.inputFiles ?? []).map((f) => f.name), o.signal);
    return found ? this.app.agent.runProgram(CLI_CONVERSATION, found, o, requirement) : this.app.agent.run(CLI_CONVERSATION, this.withNote(requirement, o), o);
  }

  /** The requirement with the note naming the attached files (what `code-agent run --file` sends too). */
  private withNote(requirement: string, options: CallOptions): string {
    return options.inputFiles?.length ? withInputFilesNote(requirement, options.inputFiles) : requirement;
  }

  private async improve(feedback: string): Promise<void> {
    const run = this.requireRun();
    if (!feedback && runOutcome(run) === 'success') {
      // nothing to fix: an LLM call without feedback would only make the same program again
      this.awaitingFeedback = true;
      this.io.print('The current run succeeded. What should change? (type it on the next line; an empty line keeps it as it is)');
      return;
    }
    // the way back from a team program found for the request, as chat's "Write a new program" button
    const fresh = ranMatchedProgram(run) && NEW_PROGRAM_TYPED.test(feedback.trim());
    await this.improveWith(run, fresh ? NEW_PROGRAM_FEEDBACK : feedback || undefined);
  }

  /** An improve turn; after a reply that corrected the run's reading, says how to remember it. */
  private async improveWith(run: Run, feedback: string | undefined): Promise<void> {
    const before = runBefore(run);
    await this.step((o) => this.app.agent.improve(run, feedback, o));
    const offer = offerLine(this.app, before, this.current, feedback);
    if (offer) this.io.print(offer);
  }

  /**
   * Runs one agent call with the session's renderer and cancel.
   * @param newRun a call that starts a run: the attached files are its input files (an existing run
   *   has them, and the files it wrote, in its workspace)
   */
  private async step(action: (o: CallOptions) => Promise<Run>, newRun = false): Promise<void> {
    this.controller = new AbortController();
    const { spinner, print } = this.io;
    // A line ending in "…" is a step in progress: on a terminal the spinner shows it (and the line
    // is printed once the step is over), never both at once.
    let pending: string | undefined;
    const settle = () => {
      spinner?.stop();
      if (pending !== undefined) print(pending);
      pending = undefined;
    };
    const render = createRenderer({
      progress: (l) => {
        settle();
        if (spinner && /…$/.test(l)) {
          pending = l;
          spinner.start(l.replace('[Agent] ', ''));
        } else {
          print(l);
        }
      },
      detail: (t) => {
        settle();
        print(t);
      },
    });
    const inputs = prepareInputs(newRun ? this.attached : []);
    for (const note of inputs.skipped) print(`[Agent] ${note}`);
    try {
      this.current = await action({
        signal: this.controller.signal,
        onEvent: render,
        ...(inputs.files.length ? { inputFiles: inputs.files } : {}),
      });
    } finally {
      settle();
      this.controller = undefined;
    }
    if (this.io.outDir) {
      const copies = await copyArtifacts(this.current, this.io.outDir);
      if (copies.length) print(copiedLine(copies));
    }
    const choices = candidateLines(this.current);
    choices.forEach((l) => print(l));
    this.awaitingChoice = choices.length > 0;
  }

  private async history(): Promise<void> {
    const runs = await numberedRuns(this.app.store, CLI_CONVERSATION);
    if (runs.length === 0) return this.io.print('No runs yet.');
    const shown = runs.slice(-HISTORY_ROWS).reverse();
    if (runs.length > shown.length) this.io.print(`(the newest ${shown.length} of ${runs.length} runs)`);
    for (const { number, run } of shown) this.io.print(historyRow(number, run));
  }

  private async open(arg: string): Promise<void> {
    const n = Number(arg);
    if (!Number.isInteger(n) || n < 1) throw new InputError('/open needs the number of a run from /history, e.g. /open 2');
    const run = (await numberedRuns(this.app.store, CLI_CONVERSATION))[n - 1]?.run;
    if (!run) throw new InputError(`there is no run ${n} in /history`);
    this.current = run;
    const tail = ` (${runOutcome(run)}). /show, /execute or /improve it.`;
    const head = `Run ${n} is now current: `;
    this.io.print(`${head}${fitColumns(run.requirement, ROW_COLUMNS - head.length - tail.length)}${tail}`);
  }

  private async attach(path: string): Promise<void> {
    if (path) {
      const [file] = await readInputFiles([path], this.app.config.sandbox.max_file_mb * 1024 * 1024, '/attach');
      this.attached = [...this.attached.filter((f) => f.name !== file!.name), file!];
      if (this.current) {
        const put = await this.app.agent.addFiles(this.current, [file!]);
        const [name] = prepareInputs([file!]).files.map((f) => f.name);
        const replaced = put.replaced.find((f) => f.name === name);
        this.io.print(
          replaced
            ? `${name} replaced the file of that name in the current run's workspace (${formatBytes(replaced.bytes)} → ${formatBytes(file!.content.length)})`
            : put.added.includes(name!)
              ? `${name} added to the current run's workspace (/improve or /execute finds it)`
              : `${name} is already in the current run's workspace, unchanged`,
        );
      }
    }
    if (this.attached.length === 0) return this.io.print('No input files attached. /attach <file> gives the next runs one.');
    this.io.print(`Input files for the next runs: ${this.attached.map((f) => `${f.name} (${f.content.length} bytes)`).join(', ')}`);
  }

  private async detach(name: string): Promise<void> {
    if (!name) {
      this.attached = [];
      return this.io.print('No input files attached.');
    }
    const before = this.attached.length;
    this.attached = this.attached.filter((f) => f.name !== name && prepareInputs([f]).files[0]?.name !== name);
    const fromRun = this.current ? await this.app.agent.removeFile(this.current, name) : false;
    if (!fromRun && this.attached.length === before) {
      throw new InputError(`there is no file ${name} in the current run's workspace nor among the attached files (/show lists them)`);
    }
    this.io.print(
      [fromRun ? `${name} removed from the current run's workspace` : '', this.attached.length < before ? `${name} no longer given to the next runs` : '']
        .filter((t) => t !== '')
        .join('; '),
    );
  }

  private async show(): Promise<void> {
    if (!this.current && this.attached.length > 0) {
      // nothing run yet: what the first run will be given
      this.io.print('No current code yet: start with /run <requirement> or /generate <requirement>.');
      this.io.print(`The next run is given (${this.attached.length} file${this.attached.length === 1 ? '' : 's'}):`);
      for (const f of this.attached) this.io.print(`  ${f.name} (${formatBytes(f.content.length)})`);
      return;
    }
    const run = this.requireRun();
    this.io.print(formatCode(latestCode(run)));
    const { files } = await this.app.agent.workspace(run);
    if (files.length === 0) return this.io.print('Workspace: empty (/attach <file> adds one)');
    this.io.print(`Workspace (${files.length} file${files.length === 1 ? '' : 's'}, what /improve and /execute find):`);
    for (const f of files) this.io.print(`  ${workspaceEntryText({ name: f.name, bytes: f.bytes, origin: f.origin })}`);
  }

  private async save(arg: string): Promise<void> {
    const force = /^-f\s+/.test(arg);
    const file = arg.replace(/^-f\s+/, '').trim();
    if (!file) throw new InputError('/save needs a file name, e.g. /save program.py');
    const code = latestCode(this.requireRun());
    const path = resolve(file);
    const folder = dirname(path);
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      throw new InputError(`cannot save to ${path}: the folder ${folder} does not exist`);
    }
    try {
      await writeFile(path, `${code}\n`, { flag: force ? 'w' : 'wx' });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new InputError(`${path} already exists: not overwritten (/save -f ${file} replaces it)`);
      if (code === 'EISDIR') throw new InputError(`cannot save to ${path}: it is a folder`);
      throw new InputError(`cannot save to ${path}: ${code ?? (err as Error).message}`);
    }
    this.io.print(`Saved the current code to ${path}`);
  }
}

function latestCode(run: Run): string {
  const code = [...run.attempts].reverse().find((a) => a.code)?.code;
  if (!code) throw new InputError('the current run has no code');
  return code;
}
