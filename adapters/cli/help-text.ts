/**
 * Texts of `code-agent --help` and `code-agent help <command>` that commander does not write itself:
 * what the option values mean, what happens without a command, examples and exit codes.
 */
import { Command, Option } from 'commander';
import { MAX_AGENT_RETRIES } from '../../src/config/schema.js';
import { EXIT } from './errors.js';

/** Description of `-c, --config` (every command that reads the config). */
export const CONFIG_HELP = 'config file (default ./config.yaml, or $CODE_AGENT_CONFIG)';

/** Description of `--max-retries`. */
export const RETRIES_HELP = `improvement attempts after a failure, 0 to ${MAX_AGENT_RETRIES} (default agent.max_retries, 3)`;

/** Shown after the program's help: what happens without a command, and where to start. */
export const PROGRAM_HELP_AFTER = `
Without a command, code-agent starts an interactive session: type a requirement,
or /help for its commands (/run, /show, /improve, /history, /save, /exit…).

Examples:
  code-agent run "print the first 20 primes"
  code-agent run --file sales.csv --out results "plot the monthly totals of sales.csv"
  code-agent                       interactive session
  code-agent help run              the options of run
  code-agent programs list         the team programs (saved with /program save <name> in a session)
  code-agent doctor                what sandbox isolation this machine gives, its Python, the tools`;

/** Shown after the help of `run`: examples and exit codes. */
export const RUN_HELP_AFTER = `
Examples:
  code-agent run "implement quicksort and sort a sample list"
  code-agent run --json --max-retries 1 "print the mean of 1..10"
  code-agent run --file data.csv --file notes.txt --out results "plot data.csv"
  code-agent run --program revenue-by-region --param REGION=EU --param DAYS=30
                                   run a team program (no LLM call; see code-agent programs)
  code-agent run --new "revenue per region last week"
                                   write a new program even when a team program answers it

Exit codes: ${EXIT.success} success, ${EXIT.failed} still failing after the retries (or the LLM failed),
${EXIT.usage} usage, config or sandbox error, ${EXIT.cancelled} cancelled (Ctrl-C).`;

/** The `-c, --config <file>` option, with its description. */
export function configOption(): Option {
  return new Option('-c, --config <file>', CONFIG_HELP);
}

/**
 * Fails with "unknown command" for a word that is no command (exit 2; the program's help, which
 * lists the commands, follows). A word with spaces is most likely a requirement typed without `run`.
 * @throws {CommanderError} always.
 */
export function unknownCommand(program: Command, word: string): never {
  const hint = /\s/.test(word.trim()) ? `; to run a requirement: code-agent run "${word}"` : '';
  return program.error(`error: unknown command '${word}'${hint}`, { code: 'commander.unknownCommand', exitCode: EXIT.usage });
}
