/**
 * `code-agent run "<requirement>"`: one run, rendered as progress lines or as one JSON object.
 */
import { createApp, type AppOverrides } from '../../src/app/app.js';
import type { Config } from '../../src/config/schema.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { createRenderer } from './render.js';
import { runToJson } from './json-output.js';
import { EXIT } from './errors.js';

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
  /** Parts supplied instead of being built from config (tests). */
  overrides?: AppOverrides;
}

/**
 * Runs one requirement to the end. Ctrl-C cancels the run.
 * @returns the exit code: 0 success, 1 failed after retries, 130 cancelled.
 * @throws {ConfigError | InputError | HistoryError} for usage, config or store problems.
 */
export async function runOnce(config: Config, requirement: string, options: RunOnceOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const app = await createApp(config, options.overrides);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const progressOut = options.json ? stderr : stdout;
    const render = createRenderer(
      { progress: (l) => progressOut.write(`${l}\n`), detail: (t) => progressOut.write(`${t}\n`) },
      { showDetails: !options.json },
    );
    const run = await app.agent.run(CLI_CONVERSATION, requirement, {
      signal: controller.signal,
      onEvent: render,
      ...(options.inputFiles?.length ? { inputFiles: options.inputFiles } : {}),
    });
    if (options.json) stdout.write(`${JSON.stringify(runToJson(run))}\n`);
    if (run.status === 'success' || run.status === 'unverified') return EXIT.success;
    return controller.signal.aborted ? EXIT.cancelled : EXIT.failed;
  } finally {
    process.off('SIGINT', onSigint);
    await app.close();
  }
}
