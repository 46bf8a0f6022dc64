/**
 * One interactive session's state and commands: the current run (and its workspace, kept in the
 * history store), the attached input files given to new runs (`session-files.ts`), the step in
 * progress (cancellable), and the answer awaited after a bare `/improve`.
 */
import type { Ora } from 'ora';
import type { App } from '../../src/app/app.js';
import type { Run } from '../../src/history/types.js';
import { InputError } from '../../src/config/errors.js';
import type { CallOptions } from '../../src/agent/loop/index.js';
import { prepareInputs, withInputFilesNote } from '../../src/chat/input-note.js';
import { createRenderer } from './render.js';
import { CLI_CONVERSATION } from './run-command.js';
import { describeError } from './errors.js';
import { copiedLine, copyArtifacts } from './out-dir.js';
import { fitColumns, historyRow, numberedRuns, ROW_COLUMNS } from './history-rows.js';
import { runOutcome } from './outcome.js';
import { applyChoice, candidateLines, CHOICE_PROMPT, isTypedChoice, typedChoice } from './settle-commands.js';
import { NEW_PROGRAM_FEEDBACK, ranMatchedProgram, type ChoiceAction } from '../../src/chat/settle-view.js';
import { offerLine, sessionMemoryCommand } from './session-memory.js';
import { runBefore } from '../../src/memory/offer.js';
import { sessionProgramCommand } from './session-programs.js';
import { SessionFiles } from './session-files.js';

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
  /** The attached input files, the workspace, `/show` and `/save` (`session-files.ts`). */
  private readonly files: SessionFiles;
  private awaitingFeedback = false;
  /** A run ended with candidates: the next line is the choice (see settle-commands.ts). */
  private awaitingChoice = false;

  constructor(
    private readonly app: App,
    private readonly io: SessionIo,
  ) {
    this.files = new SessionFiles({ app, print: (t) => io.print(t), current: () => this.current, requireRun: () => this.requireRun() });
  }

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
        return this.files.show();
      case 'history':
        return this.history();
      case 'open':
        return this.open(rest);
      case 'attach':
        return this.files.attach(rest);
      case 'detach':
        return this.files.detach(rest);
      case 'save':
        return this.files.save(rest);
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
    const inputs = prepareInputs(newRun ? this.files.attached : []);
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
}
