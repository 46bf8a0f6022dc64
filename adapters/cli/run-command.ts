/**
 * `code-agent run "<requirement>"` (or `--program <name> [--param k=v]…`: a team program, no LLM
 * call): one run, rendered as progress lines or as one JSON object. A requirement that a team
 * program of the terminal answers in other words runs that program at once, and says so (`--new`
 * writes a new program instead), as a chat run does.
 */
import { createApp, type AppOverrides } from '../../src/app/app.js';
import type { Config } from '../../src/config/schema.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { prepareInputs, withInputFilesNote } from '../../src/chat/input-note.js';
import { createRenderer } from './render.js';
import { runToJson } from './json-output.js';
import { EXIT } from './errors.js';
import { copiedLine, copyArtifacts, notCopiedLine } from './out-dir.js';
import { askChoice } from './run-choice.js';

/** Conversation id of the terminal's history. */
export const CLI_CONVERSATION = 'cli:local';

/** Options of {@link runOnce}. */
export interface RunOnceOptions {
  /** Print one JSON object on stdout; progress lines go to stderr. */
  json?: boolean;
  /** Where text goes (defaults: process.stdout / process.stderr). */
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Files placed in the sandbox work dir (`--file`). */
  inputFiles?: InputFile[];
  /** Folder the run's artifacts are copied into (`--out`). */
  outDir?: string;
  /** `--program NAME [--param k=v]…`: run the terminal's team program instead of a requirement (no LLM call). */
  program?: { name: string; params: string[] };
  /**
   * `--new`: write a new program for the requirement, without first looking for a team program of
   * the terminal that answers it (otherwise one found runs at once, named: src/programs/match.ts).
   */
  fresh?: boolean;
  /** Parts supplied instead of being built from config (tests). */
  overrides?: AppOverrides;
  /**
   * Where a choice among candidates is read from (default process.stdin). Asked only without `--json`
   * and when it is a terminal (`isTTY`).
   */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** Signals that cancel a run, and the exit code each gives (128 + the signal's number, as a shell reports it). */
const CANCEL_SIGNALS = { SIGINT: EXIT.cancelled, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Runs one requirement to the end. Ctrl-C (and SIGTERM, SIGHUP) cancels the run; the sandbox's
 * temp folder is removed before the process exits.
 * @returns the exit code: 0 success or unverified, 1 failed after retries, 130 cancelled (143 on
 *   SIGTERM, 129 on SIGHUP).
 * @throws {ConfigError | InputError | HistoryError} for usage, config or store problems.
 */
export async function runOnce(config: Config, requirement: string, options: RunOnceOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  // no endpoint serves metrics here: none are kept (usage is still recorded)
  // a team program makes no LLM call: a local model is loaded only if something asks for it
  const app = await createApp(config, { metrics: null, ...(options.program ? { deferLlmLoad: 'until-used' as const } : {}), ...options.overrides });
  const controller = new AbortController();
  let cancelledWith: number = EXIT.cancelled;
  const handlers = Object.entries(CANCEL_SIGNALS).map(([signal, code]) => {
    const handler = () => {
      cancelledWith = code;
      controller.abort();
    };
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  try {
    const progressOut = options.json ? stderr : stdout;
    const render = createRenderer(
      { progress: (l) => progressOut.write(`${l}\n`), detail: (t) => progressOut.write(`${t}\n`) },
      { showDetails: !options.json, programSurface: 'command' },
    );
    const inputs = prepareInputs(options.inputFiles ?? []);
    for (const note of inputs.skipped) progressOut.write(`[Agent] ${note}\n`);
    const call = { signal: controller.signal, onEvent: render, ...(inputs.files.length ? { inputFiles: inputs.files } : {}) };
    const team = options.program;
    // a team program: its name and values are checked before anything runs (a refusal exits 2)
    const prepared = team ? await app.agent.programs.prepare(CLI_CONVERSATION, team.name, team.params) : undefined;
    // a requirement in other words that a team program answers runs it at once, named (as in chat); --new skips it
    const found = prepared || options.fresh ? undefined : await app.agent.findProgram(CLI_CONVERSATION, requirement, inputs.files.map((f) => f.name), controller.signal);
    let run = prepared
      ? await app.agent.runProgram(CLI_CONVERSATION, prepared, call)
      : found
        ? await app.agent.runProgram(CLI_CONVERSATION, found, call, requirement)
        : await app.agent.run(CLI_CONVERSATION, withInputFilesNote(requirement, inputs.files), call);
    const stdin = options.stdin ?? process.stdin;
    if (!run.program && !options.json && stdin.isTTY && !controller.signal.aborted) run = await askChoice(app.agent, run, stdin, stdout, controller.signal);
    const json = runToJson(run);
    if (options.outDir && run.status === 'failed') {
      // a failed run's files are what a program wrote before it failed: no answer to hand over
      const left = notCopiedLine(run, options.outDir);
      if (left) progressOut.write(`${left}\n`);
    } else if (options.outDir) {
      const copies = await copyArtifacts(run, options.outDir);
      copies.forEach((c, i) => (json.artifacts[i]!.outPath = c.to));
      if (copies.length) progressOut.write(`${copiedLine(copies)}\n`);
    }
    if (options.json) stdout.write(`${JSON.stringify(json)}\n`);
    if (run.status === 'success' || run.status === 'unverified') return EXIT.success;
    return controller.signal.aborted ? cancelledWith : EXIT.failed;
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
    await app.close();
  }
}
