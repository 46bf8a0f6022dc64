/**
 * The slash commands of the bot and their registration through discord.js's REST client.
 *
 * Registration is a bulk overwrite (`PUT`), for one guild (development: visible at once) or
 * globally (may take up to an hour to appear).
 * Source: https://discord.com/developers/docs/interactions/application-commands#registering-a-command
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  InteractionContextType,
  REST,
  Routes,
  type RESTPutAPIApplicationCommandsJSONBody,
} from 'discord.js';

/**
 * Longest requirement accepted by the `requirement` option, in characters.
 * Discord caps string options at 6000 characters.
 * Source: https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-option-structure
 */
export const MAX_REQUIREMENT_OPTION_CHARS = 6000;

const requirementOption = {
  name: 'requirement',
  description: 'What the program should do, in plain language',
  type: ApplicationCommandOptionType.String,
  required: true,
  min_length: 1,
  max_length: MAX_REQUIREMENT_OPTION_CHARS,
} as const;

/**
 * An optional file for `/run` and `/generate`: it becomes an input file in the sandbox.
 * Source: https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-option-type (ATTACHMENT = 11)
 */
export const FILE_OPTION = 'file';
const fileOption = {
  name: FILE_OPTION,
  description: 'A file the program should read (placed in its working directory)',
  type: ApplicationCommandOptionType.Attachment,
  required: false,
} as const;

/** Where the commands may be used: guild channels and the bot's DM. */
const contexts = [InteractionContextType.Guild, InteractionContextType.BotDM];

/** The command definitions (`/run`, `/generate`, `/history`, `/show`, `/remember`, `/memory`, `/programs`, `/program`, `/usage`) as Discord's JSON. */
export const COMMANDS: RESTPutAPIApplicationCommandsJSONBody = [
  {
    name: 'run',
    description: 'Write Python for a requirement, run it in a sandbox and fix it until it works',
    type: ApplicationCommandType.ChatInput,
    options: [requirementOption, fileOption],
    contexts,
  },
  {
    name: 'generate',
    description: 'Write Python for a requirement without running it',
    type: ApplicationCommandType.ChatInput,
    options: [requirementOption, fileOption],
    contexts,
  },
  {
    name: 'history',
    description: "This channel's recent runs",
    type: ApplicationCommandType.ChatInput,
    options: [
      {
        name: 'limit',
        description: 'How many runs (default 10)',
        type: ApplicationCommandOptionType.Integer,
        required: false,
        min_value: 1,
        max_value: 25,
      },
    ],
    contexts,
  },
  {
    name: 'show',
    description: 'Show a run of this channel: its workspace, latest code and result',
    type: ApplicationCommandType.ChatInput,
    options: [
      {
        name: 'run',
        description: 'Run id (from /history); default: the latest run',
        type: ApplicationCommandOptionType.String,
        required: false,
        max_length: 64,
      },
      {
        name: 'remove',
        description: "A file to remove from the run's workspace (later turns no longer find it)",
        type: ApplicationCommandOptionType.String,
        required: false,
        max_length: 255,
      },
      {
        name: 'delete_run',
        description: 'Delete the whole run (give its id): record, workspace files, outputs, thread link',
        type: ApplicationCommandOptionType.Boolean,
        required: false,
      },
    ],
    contexts,
  },
  {
    name: 'remember',
    description: "Teach this channel a definition its next runs read requests with",
    type: ApplicationCommandType.ChatInput,
    options: [
      {
        name: 'definition',
        description: 'One short sentence, e.g. revenue = units × unit_price',
        type: ApplicationCommandOptionType.String,
        required: true,
        max_length: 1000,
      },
    ],
    contexts,
  },
  {
    name: 'memory',
    description: "What this channel remembers (definitions, approved examples); forget an entry",
    type: ApplicationCommandType.ChatInput,
    options: [
      {
        name: 'forget',
        description: 'The id of an entry to forget (from /memory, e.g. m12)',
        type: ApplicationCommandOptionType.String,
        required: false,
        max_length: 64,
      },
    ],
    contexts,
  },
  {
    name: 'programs',
    description: "This channel's team programs (saved runs that run again with no LLM call)",
    type: ApplicationCommandType.ChatInput,
    contexts,
  },
  {
    name: 'program',
    description: 'Run a team program by name (no LLM call), or show or remove it',
    type: ApplicationCommandType.ChatInput,
    options: [
      {
        name: 'name',
        description: 'The program (from /programs)',
        type: ApplicationCommandOptionType.String,
        required: true,
        max_length: 48,
      },
      {
        name: 'args',
        description: 'param=value … to run it with, or show, or remove',
        type: ApplicationCommandOptionType.String,
        required: false,
        max_length: 2000,
      },
      { ...fileOption, description: 'An input file for the run (default: the files it was saved with)' },
    ],
    contexts,
  },
  {
    name: 'schedule',
    description: 'Run a team program on a schedule; each run posts a new thread in this channel',
    type: ApplicationCommandType.ChatInput,
    options: [
      { name: 'program', description: 'The team program (from /programs)', type: ApplicationCommandOptionType.String, required: true, max_length: 64 },
      { name: 'when', description: 'e.g. every Monday at 9, daily at 08:00, every 2 hours, or a cron line', type: ApplicationCommandOptionType.String, required: true, max_length: 200 },
      { name: 'only_when', description: 'Post only when: it changed, or a condition such as refunds > 5 %', type: ApplicationCommandOptionType.String, required: false, max_length: 200 },
      { name: 'params', description: 'Parameter values, e.g. region=EU days=7', type: ApplicationCommandOptionType.String, required: false, max_length: 500 },
    ],
    contexts,
  },
  {
    name: 'schedules',
    description: "This channel's schedules; resume a paused one",
    type: ApplicationCommandType.ChatInput,
    options: [{ name: 'resume', description: 'The id of a paused schedule to run again (e.g. s3)', type: ApplicationCommandOptionType.String, required: false, max_length: 64 }],
    contexts,
  },
  {
    name: 'unschedule',
    description: 'Remove a schedule of this channel',
    type: ApplicationCommandType.ChatInput,
    options: [{ name: 'id', description: 'The schedule id (from /schedules, e.g. s3)', type: ApplicationCommandOptionType.String, required: true, max_length: 64 }],
    contexts,
  },
  {
    name: 'usage',
    description: 'Admins: LLM tokens, time and CPU spent, per channel, user or day',
    type: ApplicationCommandType.ChatInput,
    options: [
      {
        name: 'by',
        description: 'One line per channel (default), user or day',
        type: ApplicationCommandOptionType.String,
        required: false,
        choices: [
          { name: 'channel', value: 'channel' },
          { name: 'user', value: 'user' },
          { name: 'day', value: 'day' },
        ],
      },
      {
        name: 'since',
        description: 'From this many days back (30d, the default), weeks (4w) or a date (2025-01-31), UTC',
        type: ApplicationCommandOptionType.String,
        required: false,
        max_length: 20,
      },
    ],
    contexts,
  },
];

/** Where to register: one guild (development) or every guild (global). */
export type RegisterTarget = { guildId: string } | { global: true };

/** What registration needs. */
export interface RegisterOptions {
  /** Bot token (without the `Bot ` prefix). */
  token: string;
  /** The application (client) id. */
  applicationId: string;
  /** REST base URL, e.g. `https://discord.com/api` (default) or a test server's. */
  apiUrl?: string;
  target: RegisterTarget;
}

/**
 * Registers (overwrites) the commands.
 * @returns the names of the commands Discord now has for that target.
 * @throws the REST client's error (e.g. `DiscordAPIError[50001]: Missing Access` when the bot was not
 *   invited to the guild with the `applications.commands` scope).
 */
export async function registerCommands(options: RegisterOptions): Promise<string[]> {
  const rest = new REST({ version: '10', ...(options.apiUrl ? { api: options.apiUrl } : {}) }).setToken(options.token);
  const route =
    'guildId' in options.target
      ? Routes.applicationGuildCommands(options.applicationId, options.target.guildId)
      : Routes.applicationCommands(options.applicationId);
  const result = (await rest.put(route, { body: COMMANDS })) as Array<{ name: string }>;
  return result.map((c) => c.name);
}
