/**
 * The slash commands of the bot — the chat commands of src/chat/command-catalog.ts as Discord's
 * JSON — and their registration through discord.js's REST client.
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
  type APIApplicationCommandBasicOption,
  type RESTPutAPIApplicationCommandsJSONBody,
} from 'discord.js';
import { CHAT_COMMANDS, type ChatCommand, type CommandOption, type OptionKind } from '../../src/chat/command-catalog.js';

/**
 * Discord's limits on a command, checked when the catalogue is mapped: names are 1-32 lower-case
 * characters, descriptions 1-100 characters, string options at most 6000 characters, at most 25
 * options and 25 choices, and required options come before optional ones.
 * Source: https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-structure
 * and https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-option-structure
 */
export const DISCORD_LIMITS = { name: /^[-_\p{L}\p{N}]{1,32}$/u, descriptionChars: 100, stringChars: 6000, options: 25, choices: 25 } as const;

/**
 * Discord's option type of each kind (ATTACHMENT = 11; a choice is a STRING with choices).
 * Source: https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-option-type
 */
const OPTION_TYPES = {
  text: ApplicationCommandOptionType.String,
  choice: ApplicationCommandOptionType.String,
  integer: ApplicationCommandOptionType.Integer,
  boolean: ApplicationCommandOptionType.Boolean,
  file: ApplicationCommandOptionType.Attachment,
} as const satisfies Record<OptionKind, ApplicationCommandOptionType>;

/** Where the commands may be used: guild channels and the bot's DM. */
const contexts = [InteractionContextType.Guild, InteractionContextType.BotDM];

/** One option as Discord's JSON. */
function discordOption(o: CommandOption): APIApplicationCommandBasicOption {
  return {
    name: o.name,
    description: o.description,
    type: OPTION_TYPES[o.kind],
    required: o.required,
    ...(o.minLength !== undefined ? { min_length: o.minLength } : {}),
    ...(o.maxLength !== undefined ? { max_length: o.maxLength } : {}),
    ...(o.min !== undefined ? { min_value: o.min } : {}),
    ...(o.max !== undefined ? { max_value: o.max } : {}),
    ...(o.choices ? { choices: o.choices.map((c) => ({ name: c, value: c })) } : {}),
  } as APIApplicationCommandBasicOption;
}

/**
 * The catalogue's commands as Discord's JSON (a chat input command each).
 * @throws {Error} naming the command and option that break one of {@link DISCORD_LIMITS}.
 */
export function discordCommands(catalog: readonly ChatCommand[]): RESTPutAPIApplicationCommandsJSONBody {
  return catalog.map((c) => {
    const broken = (what: string) => new Error(`chat command /${c.name}: ${what} (Discord's limits: adapters/discord/commands.ts)`);
    const texts = [c, ...c.options];
    const bad = texts.find((t) => !DISCORD_LIMITS.name.test(t.name) || t.name !== t.name.toLowerCase() || !t.description || t.description.length > DISCORD_LIMITS.descriptionChars);
    if (bad) throw broken(`${bad.name}: a name of 1-32 lower-case characters and a description of 1-${DISCORD_LIMITS.descriptionChars} characters`);
    if (c.options.length > DISCORD_LIMITS.options) throw broken(`more than ${DISCORD_LIMITS.options} options`);
    if (c.options.some((o) => (o.maxLength ?? 0) > DISCORD_LIMITS.stringChars || (o.choices?.length ?? 0) > DISCORD_LIMITS.choices)) {
      throw broken(`an option longer than ${DISCORD_LIMITS.stringChars} characters or with more than ${DISCORD_LIMITS.choices} choices`);
    }
    if (c.options.some((o, i) => o.required && c.options.slice(0, i).some((before) => !before.required))) throw broken('a required option after an optional one');
    return {
      name: c.name,
      description: c.description,
      type: ApplicationCommandType.ChatInput,
      ...(c.options.length ? { options: c.options.map(discordOption) } : {}),
      contexts,
    };
  });
}

/** The command definitions (every command of src/chat/command-catalog.ts) as Discord's JSON. */
export const COMMANDS: RESTPutAPIApplicationCommandsJSONBody = discordCommands(CHAT_COMMANDS);

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
