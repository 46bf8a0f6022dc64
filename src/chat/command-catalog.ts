/**
 * The chat commands, written once: each command's name, description, usage hint and options (with
 * their kinds and limits), and how its options are written as the one line of text the pipeline
 * reads (`/schedule revenue region=EU every Monday at 9 only when it changed`). A platform maps
 * this catalogue to what it registers or shows: Discord's application commands
 * (adapters/discord/commands.ts), Matrix's `!` spellings read back by {@link typedCommand} (adapters/matrix/incoming.ts); Slack's
 * app manifest (adapters/slack/manifest.yml) repeats the names, descriptions and hints, and a test
 * holds it to this catalogue (test/slack/manifest-catalog.test.ts).
 */
import type { CommandNames, RequestKind } from './incoming-port.js';

/** A command that is a request to the pipeline (the name is its {@link RequestKind}). */
export type RequestCommand = keyof CommandNames & RequestKind;

/** A command's name: a request to the pipeline, or `usage` (admins; answered by the platform). */
export type CommandName = RequestCommand | 'usage';

/** What an option takes: free text, a whole number, yes/no, an attached file, or one of fixed values. */
export type OptionKind = 'text' | 'integer' | 'boolean' | 'file' | 'choice';

/** One option of a command (a structured argument where the platform has them: Discord). */
export interface CommandOption {
  /** Its name, lower case (`requirement`, `only_when`). */
  name: string;
  description: string;
  kind: OptionKind;
  required: boolean;
  /** `text`: fewest and most characters. */
  minLength?: number;
  maxLength?: number;
  /** `integer`: smallest and largest value. */
  min?: number;
  max?: number;
  /** `choice`: the values offered (each is also what is written in the line). */
  choices?: readonly string[];
  /**
   * The word written before its value in the command's line (`forget` in `/memory forget m12`); a
   * `boolean` writes only this word when it is set, and ends the line (the options after it are not
   * written).
   */
  keyword?: string;
  /** Other spellings of {@link keyword} the pipeline reads the same: a value starting with one is not given the keyword twice. */
  sameAs?: readonly string[];
}

/** One chat command. */
export interface ChatCommand {
  name: CommandName;
  /** What it does, in one line (at most 100 characters: Discord's limit). */
  description: string;
  /** What to type after it: its arguments' shape or an example (Slack's `usage_hint`); absent: nothing to type. */
  hint?: string;
  options: readonly CommandOption[];
  /** The options in the order the line writes them, when that differs from {@link options}' (which lists the required ones first). */
  line?: readonly string[];
}

/** The longest requirement, in characters (Discord caps string options at 6000). */
export const MAX_REQUIREMENT_CHARS = 6000;

const requirement: CommandOption = {
  name: 'requirement',
  description: 'What the program should do, in plain language',
  kind: 'text',
  required: true,
  minLength: 1,
  maxLength: MAX_REQUIREMENT_CHARS,
};

/** The name of the file option of `/run`, `/generate` and `/program` (its file becomes an input file). */
export const FILE_OPTION = 'file';

const file: CommandOption = {
  name: FILE_OPTION,
  description: 'A file the program should read (placed in its working directory)',
  kind: 'file',
  required: false,
};

/** An optional id written after a keyword (`forget m12`, `resume s3`). */
const idAfter = (keyword: string, description: string): CommandOption => ({ name: keyword, description, kind: 'text', required: false, maxLength: 64, keyword });

/** Every chat command, in the order platforms list them. */
export const CHAT_COMMANDS: readonly ChatCommand[] = [
  {
    name: 'run',
    description: 'Write Python for a requirement, run it in a sandbox and fix it until it works',
    hint: 'plot a sine wave from 0 to 2π',
    options: [requirement, file],
  },
  {
    name: 'generate',
    description: 'Write Python for a requirement without running it',
    hint: 'parse a CSV and print the column sums',
    options: [requirement, file],
  },
  {
    name: 'history',
    description: "This channel's recent runs",
    options: [{ name: 'limit', description: 'How many runs (default 10)', kind: 'integer', required: false, min: 1, max: 25 }],
  },
  {
    name: 'show',
    description: 'Show a run of this channel: its workspace, latest code and result',
    hint: '[run id | thread link] [remove <file name>]',
    options: [
      { name: 'run', description: 'Run id (from /history); default: the latest run', kind: 'text', required: false, maxLength: 64 },
      { name: 'remove', description: "A file to remove from the run's workspace (later turns no longer find it)", kind: 'text', required: false, maxLength: 255, keyword: 'remove' },
      { name: 'delete_run', description: 'Delete the whole run (give its id): record, workspace files, outputs, thread link', kind: 'boolean', required: false, keyword: 'remove' },
    ],
    // `<run> remove` deletes the whole run: set, it ends the line before a file name
    line: ['run', 'delete_run', 'remove'],
  },
  {
    name: 'remember',
    description: 'Teach this channel a definition its next runs read requests with',
    hint: 'revenue = units × unit_price',
    options: [{ name: 'definition', description: 'One short sentence, e.g. revenue = units × unit_price', kind: 'text', required: true, maxLength: 1000 }],
  },
  {
    name: 'memory',
    description: 'What this channel remembers (definitions, approved examples); forget an entry',
    hint: '[forget <id>]',
    options: [idAfter('forget', 'The id of an entry to forget (from /memory, e.g. m12)')],
  },
  {
    name: 'programs',
    description: "This channel's team programs (saved runs that run again with no LLM call)",
    options: [],
  },
  {
    name: 'program',
    description: 'Run a team program by name (no LLM call), or show or remove it',
    hint: '<name> [param=value …] | <name> show | <name> remove',
    options: [
      { name: 'name', description: 'The program (from /programs)', kind: 'text', required: true, maxLength: 48 },
      { name: 'args', description: 'param=value … to run it with, or show, or remove', kind: 'text', required: false, maxLength: 2000 },
      { ...file, description: 'An input file for the run (default: the files it was saved with)' },
    ],
  },
  {
    name: 'schedule',
    description: 'Run a team program on a schedule; each run posts a new thread in this channel',
    hint: '<program> [name=value] <when> [only when …]  e.g. revenue every Monday at 9',
    options: [
      { name: 'program', description: 'The team program (from /programs)', kind: 'text', required: true, maxLength: 64 },
      { name: 'when', description: 'e.g. every Monday at 9, daily at 08:00, every 2 hours, or a cron line', kind: 'text', required: true, maxLength: 200 },
      { name: 'only_when', description: 'Post only when: it changed, or a condition such as refunds > 5 %', kind: 'text', required: false, maxLength: 200, keyword: 'only when', sameAs: ['only if'] },
      { name: 'params', description: 'Parameter values, e.g. region=EU days=7', kind: 'text', required: false, maxLength: 500 },
    ],
    line: ['program', 'params', 'when', 'only_when'],
  },
  {
    name: 'schedules',
    description: "This channel's schedules; resume a paused one",
    hint: '[resume <id>]',
    options: [idAfter('resume', 'The id of a paused schedule to run again (e.g. s3)')],
  },
  {
    name: 'unschedule',
    description: 'Remove a schedule of this channel',
    hint: '<id>',
    options: [{ name: 'id', description: 'The schedule id (from /schedules, e.g. s3)', kind: 'text', required: true, maxLength: 64 }],
  },
  {
    name: 'usage',
    description: 'Admins: LLM tokens, time and CPU spent, per channel, user or day',
    hint: '[channel|user|day] [30d]',
    options: [
      { name: 'by', description: 'One line per channel (default), user or day', kind: 'choice', required: false, choices: ['channel', 'user', 'day'] },
      { name: 'since', description: 'From this many days back (30d, the default), weeks (4w) or a date (2025-01-31), UTC', kind: 'text', required: false, maxLength: 20 },
    ],
  },
];

/** The commands that are requests to the pipeline (all but `usage`), in catalogue order. */
export const REQUEST_COMMANDS: readonly RequestCommand[] = CHAT_COMMANDS.flatMap((c) => (c.name === 'usage' ? [] : [c.name]));

/** The catalogue's command of that name. @throws {Error} for a name it does not have. */
export function chatCommand(name: string): ChatCommand {
  const command = CHAT_COMMANDS.find((c) => c.name === name);
  if (!command) throw new Error(`no chat command named ${JSON.stringify(name)} (the catalogue has ${CHAT_COMMANDS.map((c) => c.name).join(', ')})`);
  return command;
}

/** How a platform spells the request commands: `prefix` and the name (`/run`, `!run`). */
export function commandNames(prefix: string): CommandNames {
  return Object.fromEntries(REQUEST_COMMANDS.map((name) => [name, `${prefix}${name}`])) as unknown as CommandNames;
}

/**
 * A request command as typed in a message (`!run plot a sine wave`, `!HISTORY 5`), read with a
 * platform's spellings ({@link commandNames}): the command and the line after it (what follows the
 * name and its whitespace; '' when nothing does). The text is trimmed; a name matches in any case
 * and only whole (`!programs` is not `!program s`).
 * @returns undefined when the text is no request command
 */
export function typedCommand(text: string, names: CommandNames): { name: RequestCommand; line: string } | undefined {
  const typed = text.trim();
  for (const name of REQUEST_COMMANDS) {
    const rest = typed.slice(names[name].length);
    if (typed.slice(0, names[name].length).toLowerCase() === names[name].toLowerCase() && (rest === '' || /^\s/.test(rest))) return { name, line: rest.trimStart() };
  }
  return undefined;
}

/**
 * A command's options as its one line of text (what people type after the command on Slack and
 * Matrix, and what the pipeline reads): the values in line order, trimmed, each after its keyword;
 * file options are not written (they are the request's files).
 * @param value an option's value as given (undefined, null or empty: not given)
 */
export function commandLine(command: ChatCommand, value: (option: CommandOption) => string | number | boolean | null | undefined): string {
  const order = command.line ?? command.options.map((o) => o.name);
  const words: string[] = [];
  for (const name of order) {
    const option = command.options.find((o) => o.name === name)!;
    const given = value(option);
    if (option.kind === 'file' || given === undefined || given === null || given === false) continue;
    if (option.kind === 'boolean') {
      words.push(option.keyword ?? option.name);
      break;
    }
    let text = String(given).trim();
    const spelled = [option.keyword, ...(option.sameAs ?? [])].find((k) => k && text.toLowerCase().startsWith(`${k} `));
    if (spelled) text = text.slice(spelled.length).trim();
    if (text) words.push(option.keyword ? `${option.keyword} ${text}` : text);
  }
  return words.join(' ');
}
