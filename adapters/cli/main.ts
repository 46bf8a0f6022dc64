/**
 * `code-agent` command line (a contract documented in the README):
 * `code-agent run "<requirement>" [--config F] [--max-retries N] [--json]`, the interactive session
 * with no arguments, and the chat adapters. Exit 0 success, 1 failed after retries, 2 usage or config
 * error, 130 cancelled (Ctrl-C).
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { loadDotEnv } from '../../src/config/dotenv.js';
import type { Config } from '../../src/config/schema.js';
import { EXIT, exitCodeOf, describeError } from './errors.js';
import { runOnce } from './run-command.js';
import { readInputFiles } from './input-files.js';
import { startSession } from './session.js';
import { pullModel } from '../../src/llm/model-files.js';
import { progressBar } from '../../src/llm/model-progress.js';
import { errorJson } from './json-output.js';
import { packageVersion } from './version.js';
import { DEFAULT_LOCAL_MODEL, KNOWN_MODELS, userModelsDir } from '../../src/llm/model-catalog.js';
import { fetchKnownModel } from '../../src/llm/model-fetch.js';
import { InputError } from '../../src/config/errors.js';
import { MAX_AGENT_RETRIES, slackSchema } from '../../src/config/schema.js';
import { addStoreCommands } from './store-command.js';
import { addTeamCommands } from './team-commands.js';
import { configOption, PROGRAM_HELP_AFTER, RETRIES_HELP, RUN_HELP_AFTER, unknownCommand } from './help-text.js';

function parseRetries(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n > MAX_AGENT_RETRIES) {
    throw new InvalidArgumentError(`expected a whole number from 0 to ${MAX_AGENT_RETRIES}`);
  }
  return n;
}

/** Loads the config named by `--config` (or the default), applying `--max-retries` and `--log-format` overrides. */
async function configFrom(opts: { config?: string; maxRetries?: number; logFormat?: 'json' | 'pretty' }): Promise<Config> {
  const config = await loadConfig(opts.config);
  if (opts.maxRetries !== undefined) config.agent.max_retries = opts.maxRetries;
  if (opts.logFormat !== undefined) config.log.format = opts.logFormat;
  return config;
}

/** `--log-format json|pretty` (log.format): the chat apps' and the worker's log lines. */
function logFormatOption(): Option {
  return new Option('--log-format <format>', 'log lines as JSON (one object a line) or pretty, for people (default: pretty on a terminal, else json)').choices(['json', 'pretty']);
}

/** Commander's way to take an option more than once. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Builds the command tree. Exported for tests. */
export function buildProgram(): Command {
  const program = new Command('code-agent')
    .description('Ask for code in plain language: an LLM writes Python, a sandbox runs it, errors go back until it works.')
    .addOption(configOption())
    .addOption(new Option('--max-retries <n>', RETRIES_HELP).argParser(parseRetries))
    .option('-o, --out <dir>', 'interactive session: copy the files each run writes (plots, CSVs) into this folder')
    .addOption(logFormatOption())
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print this help')
    .addHelpText('after', PROGRAM_HELP_AFTER)
    // options before a command are the session's (or shared, like --config); after it, the command's
    .enablePositionalOptions()
    .showHelpAfterError()
    .exitOverride()
    .action(async (opts: { config?: string; maxRetries?: number; out?: string }, command: Command) => {
      if (command.args.length) unknownCommand(program, command.args.join(' '));
      process.exitCode = await startSession(await configFrom(opts), { outDir: opts.out });
    });

  program
    .command('run')
    .description('generate, execute and improve code for one requirement, or run a team program (--program, no LLM call)')
    .argument('[requirement...]', 'what the program should do (none with --program)')
    .addOption(configOption())
    .addOption(new Option('--max-retries <n>', RETRIES_HELP).argParser(parseRetries))
    .option('--json', 'print one JSON object with the result on stdout (progress lines go to stderr)')
    .option('-f, --file <path>', 'give the program an input file (repeat for several); it finds it by name in its folder', collect)
    .option('-o, --out <dir>', 'also copy the files the program writes (plots, CSVs) into this folder (created when missing; never overwrites)')
    .option('--program <name>', "run the terminal's team program of that name instead (no LLM call; code-agent programs list shows them)")
    .option('--param <name=value>', 'a parameter value of the --program (repeat for several)', collect)
    .option('--new', "write a new program even when a team program of the terminal answers the requirement (otherwise that program runs at once, named)")
    .addHelpText('after', RUN_HELP_AFTER)
    .showHelpAfterError()
    .exitOverride()
    .action(async (words: string[], opts: { config?: string; maxRetries?: number; json?: boolean; file?: string[]; out?: string; program?: string; param?: string[]; new?: boolean }) => {
      const merged = { ...program.opts<{ config?: string; maxRetries?: number; out?: string }>(), ...stripUndefined(opts) };
      if (opts.program === undefined && words.length === 0) throw new InputError('run needs a requirement, e.g. code-agent run "print the first 20 primes" (or --program <name>)');
      if (opts.program !== undefined && words.length > 0) throw new InputError(`run --program takes no requirement (the program has its own): remove "${words.join(' ').slice(0, 60)}", or give values with --param name=value`);
      if (opts.program === undefined && opts.param?.length) throw new InputError('--param sets a parameter of a team program: use it with --program <name>');
      if (opts.program !== undefined && opts.new) throw new InputError('--new writes a new program for a requirement: use it without --program <name>');
      const config = await configFrom(merged);
      const inputFiles = await readInputFiles(opts.file ?? [], config.sandbox.max_file_mb * 1024 * 1024);
      const teamProgram = opts.program !== undefined ? { name: opts.program, params: opts.param ?? [] } : undefined;
      process.exitCode = await runOnce(config, words.join(' '), { json: Boolean(opts.json), inputFiles, outDir: merged.out, ...(teamProgram ? { program: teamProgram } : {}), ...(opts.new ? { fresh: true } : {}) });
    });

  /** A command that runs a chat platform's process until a signal (`code-agent discord|matrix|slack`). */
  const botCommand = (name: string, description: string, run: (config: Config) => Promise<number>) =>
    program
      .command(name)
      .description(description)
      .addOption(configOption())
      .addOption(logFormatOption())
      .exitOverride()
      .action(async (opts: { config?: string }, command: Command) => {
        if (command.args.length) unknownCommand(command, command.args[0]!);
        const merged = { ...program.opts<{ config?: string; maxRetries?: number }>(), ...stripUndefined(opts) };
        process.exitCode = await run(await configFrom(merged));
      });
  const discord = botCommand('discord', 'run the Discord bot (gateway connection; see docs/discord.md)', async (config) => (await import('../discord/main.js')).runDiscordBot(config));
  discord
    .command('register-commands')
    .description('register the slash commands for one guild (--guild ID, default discord.guild_id) or --global')
    .addOption(configOption())
    .option('--guild <id>', 'guild id (development: commands appear at once)')
    .option('--global', 'register for every guild (may take up to an hour to appear)')
    .exitOverride()
    .action(async (opts: { config?: string; guild?: string; global?: boolean }) => {
      const merged = { ...program.opts<{ config?: string }>(), ...discord.opts<{ config?: string }>(), ...stripUndefined(opts) };
      const { registerDiscordCommands } = await import('../discord/main.js');
      process.exitCode = await registerDiscordCommands(await configFrom(merged), { guild: opts.guild, global: opts.global });
    });

  botCommand('matrix', 'run the Matrix bot on a homeserver (matrix.homeserver_url, matrix.access_token; see docs/matrix.md)', async (config) => (await import('../matrix/main.js')).runMatrixBot(config));

  const slack = botCommand('slack', 'serve the Slack app: HTTP on slack.port, or Socket Mode when slack.app_token is set (docs/slack.md)', async (config) => (await import('../slack/main.js')).runSlack(config));
  slack
    .command('manifest')
    .description('print the Slack app manifest with the command names of slack.commands (paste it at api.slack.com/apps)')
    .addOption(configOption())
    .option('--url <https-url>', "the app's public https URL (HTTP mode), written into every request URL")
    .exitOverride()
    .action(async (opts: { config?: string; url?: string }) => {
      const merged = { ...program.opts<{ config?: string }>(), ...slack.opts<{ config?: string }>(), ...stripUndefined(opts) };
      const config = await configFrom(merged);
      const { shippedSlackManifest } = await import('../slack/manifest.js');
      const names = (config.slack ?? slackSchema.parse({})).commands;
      process.stdout.write(await shippedSlackManifest(names, opts.url));
      process.exitCode = EXIT.success;
    });

  program
    .command('doctor')
    .description(
      "print what sandbox isolation is active here (namespaces, cgroups, disk budget, warm pool) and why, and what the sandbox's Python offers (packages and versions, the pinned PyPI packages, your own pins, fonts)",
    )
    .addOption(configOption())
    .option('--json', 'print one JSON object instead of text')
    .exitOverride()
    .action(async (opts: { config?: string; json?: boolean }) => {
      const merged = { ...program.opts<{ config?: string }>(), ...stripUndefined(opts) };
      const { runDoctor } = await import('./doctor.js');
      process.exitCode = await runDoctor(await configFrom(merged), { json: Boolean(opts.json) });
    });

  program
    .command('worker')
    .description('queue mode: run chat jobs from the queue at queue.url (docs/deploy.md)')
    .addOption(configOption())
    .addOption(logFormatOption())
    .exitOverride()
    .action(async (opts: { config?: string }) => {
      const merged = { ...program.opts<{ config?: string; maxRetries?: number }>(), ...stripUndefined(opts) };
      const { runWorker } = await import('../worker/main.js');
      process.exitCode = await runWorker(await configFrom(merged));
    });

  program
    .command('usage')
    .description('what runs spent (LLM tokens and time, sandbox CPU, tool calls), per channel, user or day, from the store (docs/operations.md)')
    .addOption(configOption())
    .option('--since <span>', 'from this many days back (30d), weeks (4w), or a date (2025-01-31), UTC', '30d')
    .addOption(new Option('--by <what>', 'one line per channel, user or day').choices(['channel', 'user', 'day']).default('channel'))
    .option('--json', 'print one JSON object instead of a table')
    .exitOverride()
    .action(async (opts: { config?: string; since: string; by: string; json?: boolean }) => {
      const merged = { ...program.opts<{ config?: string }>(), ...stripUndefined(opts) };
      const { runUsage } = await import('./usage-command.js');
      process.exitCode = await runUsage(await configFrom(merged), { since: opts.since, by: opts.by, json: Boolean(opts.json) });
    });

  addTeamCommands(program, (opts) => configFrom({ ...program.opts<{ config?: string }>(), ...stripUndefined(opts) }));

  const model = program
    .command('model')
    .description('manage local GGUF models (fetch a known one, pull one by URI)')
    .helpCommand('help [command]', 'print the help of a command');
  model
    .command('fetch')
    .description(`fetch a known model once into the user cache, checked by sha256 (default ${DEFAULT_LOCAL_MODEL}; npm run setup does this)`)
    .argument('[name]', `one of ${Object.keys(KNOWN_MODELS).join(', ')}`, DEFAULT_LOCAL_MODEL)
    .option('--dir <dir>', 'models dir (default $CODE_AGENT_CACHE/models, else $XDG_CACHE_HOME/code-agent/models, else ~/.cache/code-agent/models)')
    .exitOverride()
    .action(async (name: string, opts: { dir?: string }) => {
      const known = KNOWN_MODELS[name];
      if (!known) throw new InputError(`unknown model '${name}' (known: ${Object.keys(KNOWN_MODELS).join(', ')})`);
      const path = await fetchKnownModel(known, {
        directory: opts.dir ?? userModelsDir(),
        onProgress: progressBar(process.stderr),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      process.stdout.write(`${path}\n`);
      process.exitCode = EXIT.success;
    });
  model
    .command('pull')
    .description('download a model once into llm.models_dir, e.g. hf:<owner>/<repo>/<file>.gguf')
    .argument('<uri>', 'hf:<owner>/<repo>/<file>.gguf or an https URL of a .gguf file')
    .addOption(configOption())
    .option('--dir <dir>', 'models dir (default llm.models_dir, data/models)')
    .exitOverride()
    .action(async (uri: string, opts: { config?: string; dir?: string }) => {
      const merged = { ...program.opts<{ config?: string }>(), ...stripUndefined(opts) };
      const config = await configFrom(merged);
      const path = await pullModel(uri, {
        directory: opts.dir ?? config.llm.models_dir,
        onProgress: progressBar(process.stderr),
        connectTimeoutMs: config.llm.download_timeout_s * 1000,
      });
      process.stdout.write(`${path}\n`);
      process.exitCode = EXIT.success;
    });

  program
    .command('help')
    .description('print this help, or the help of a command (e.g. help run, help model fetch)')
    .argument('[command...]', 'a command')
    .exitOverride()
    .action((words: string[]) => {
      let target = program;
      for (const word of words) target = target.commands.find((c) => c.name() === word) ?? unknownCommand(target, word);
      target.outputHelp();
      process.exitCode = EXIT.success;
    });

  // a word that is no command reaches the action of the program (or of slack, discord), which says
  addStoreCommands(program, (opts) => configFrom({ ...program.opts<{ config?: string }>(), ...stripUndefined(opts) }));
  // it is unknown; set last: subcommands copy these settings when they are made
  for (const command of [program, slack, discord]) command.allowExcessArguments(true);
  return program;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Runs the CLI with `argv` (without node and script), returning the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    loadDotEnv(); // .env in the current directory; variables already set win
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.success;
  } catch (err) {
    // `run --json` keeps its result shape; `doctor --json` prints `{error, problems?}` as it does when the sandbox is unavailable
    const json = argv.includes('--json') && (argv[0] === 'run' || argv[0] === 'doctor' || argv[0] === 'usage' || argv[0] === 'memory' || argv[0] === 'programs' || argv[0] === 'schedules') ? argv[0] : undefined;
    const problems = err instanceof ConfigError ? err.problems : [];
    const printJson = (message: string) => {
      // one line, as for every other error: "… is invalid: a.b: problem; c: problem"
      const error = message.replace(/:\n\s*/, ': ').replace(/\n\s*/g, '; ');
      const body = json === 'run' ? errorJson(error, problems) : { error, ...(problems.length ? { problems } : {}) };
      if (json) process.stdout.write(`${JSON.stringify(body)}\n`);
    };
    if (err instanceof CommanderError) {
      // help and version are not errors; commander already printed the message
      if (err.exitCode === 0) return EXIT.success;
      printJson(err.message.replace(/^error: /, ''));
      return EXIT.usage;
    }
    process.stderr.write(`code-agent: ${describeError(err)}\n`);
    printJson(describeError(err));
    return exitCodeOf(err);
  }
}
