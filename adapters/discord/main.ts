/**
 * Entry points used by the command line: `code-agent discord` (run the bot until SIGINT/SIGTERM)
 * and `code-agent discord register-commands [--guild ID | --global]`.
 */
import { ConfigError } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import type { App } from '../../src/app/app.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import { runChatProcess } from '../../src/app/chat-process.js';
import { registerCommands, type RegisterTarget } from './commands.js';
import { DiscordBot } from './bot.js';

/** The `discord` section with what the bot cannot start without. */
function requireDiscord(config: Config, needApplicationId: boolean): NonNullable<Config['discord']> & { token: string } {
  const discord = config.discord;
  if (!discord?.token) {
    throw new ConfigError('discord.token is not set: set DISCORD_TOKEN to the bot token (Developer Portal → Bot → Reset Token; docs/discord.md)');
  }
  if (needApplicationId && !discord.application_id) {
    throw new ConfigError('discord.application_id is not set: set DISCORD_APPLICATION_ID to the Application ID (Developer Portal → General Information)');
  }
  return discord as NonNullable<Config['discord']> & { token: string };
}

/**
 * Runs the bot until SIGINT or SIGTERM.
 * @returns the exit code (0 after a clean stop).
 * With `queue.url` set the bot is a queue-mode ingress (docs/deploy.md): it defers and enqueues, and
 * `code-agent worker` runs the jobs.
 * @throws {ConfigError} without a token or (queue mode) when Redis cannot be reached;
 *   {@link DiscordStartupError} when the gateway refuses the bot.
 */
export async function runDiscordBot(config: Config): Promise<number> {
  requireDiscord(config, false);
  const start = async (app: App, logger: ChatLog) => {
    // no HTTP server here: /healthz, /readyz and /metrics on ops.port when it is set
    const bot = new DiscordBot({ app, logger, ops: true });
    await bot.start();
    return bot;
  };
  return runChatProcess(config, 'discord', start, {
    started(bot, log) {
      log.info(`Discord bot is online as ${bot.client.user?.tag ?? 'unknown user'}`);
      if (bot.queueMode) process.stderr.write('code-agent: Discord gateway ingress running (queue mode: jobs go to the queue at queue.url)\n');
    },
    stopping: (log) => log.info('stopping: waiting for running jobs to post their final message'),
  });
}

/**
 * Registers the slash commands for `--guild ID` (default: `discord.guild_id`) or `--global`.
 * @returns exit code 0; prints the registered command names.
 * @throws {ConfigError} when the token, the application id or a target is missing.
 */
export async function registerDiscordCommands(config: Config, opts: { guild?: string; global?: boolean }): Promise<number> {
  const discord = requireDiscord(config, true);
  if (opts.guild && opts.global) throw new ConfigError('use either --guild ID or --global, not both');
  const guildId = opts.guild ?? (opts.global ? undefined : discord.guild_id);
  if (!guildId && !opts.global) {
    throw new ConfigError('say where to register: --guild ID (or discord.guild_id) for one guild, or --global');
  }
  const target: RegisterTarget = guildId ? { guildId } : { global: true };
  const names = await registerCommands({
    token: discord.token,
    applicationId: discord.application_id!,
    apiUrl: discord.api_url,
    target,
  });
  const where = guildId ? `guild ${guildId}` : 'all guilds (global commands may take up to an hour to appear)';
  process.stdout.write(`registered ${names.map((n) => `/${n}`).join(', ')} for ${where}\n`);
  return 0;
}
