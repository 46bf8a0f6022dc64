/**
 * One Discord test world: the fake Discord (REST + gateway), the fake OpenAI server, a temp dir for
 * the store and artifacts, and the real bot (discord.js Client, real agent, real sandbox).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../../src/app/app.js';
import { parseConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { DiscordBot } from '../../adapters/discord/bot.js';
import type { DiscordSettings } from '../../adapters/discord/context.js';
import { startFakeDiscord, type FakeDiscord, type FakeMessage, type FakeUser, type From } from '../fakes/discord-server.js';
import type { GatewayOptions } from '../fakes/discord-gateway.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';

/** A fenced python reply as the LLM would write it. */
export const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;

export interface World {
  discord: FakeDiscord;
  llm: FakeOpenAi;
  dir: string;
  config: Config;
  app: App;
  bot: DiscordBot;
  general: { id: string };
  alice: FakeUser;
  bob: FakeUser;
  coderRole: string;
  from(user?: FakeUser, channelId?: string): From;
  /** Stops the bot and the store, then starts new ones on the same data dir and fake. */
  restart(): Promise<void>;
  /** The thread started from an interaction's original message. */
  threadOf(interactionId: string): Promise<string>;
  /** Waits until a channel has `count` messages whose content matches. */
  waitMessages(channelId: string, pattern: RegExp, count?: number): Promise<FakeMessage[]>;
  close(): Promise<void>;
}

export interface WorldOptions {
  replies?: FakeReply[];
  /** `agent.verify`; default `off`, so that scripted replies are all code. */
  verify?: 'off' | 'checks' | 'review' | 'both';
  /** `discord` keys over the defaults, or made from the world's people and role (e.g. access lists naming alice). */
  discord?: Record<string, unknown> | ((w: { alice: FakeUser; bob: FakeUser; coderRole: string }) => Record<string, unknown>);
  settings?: Partial<DiscordSettings>;
  gateway?: GatewayOptions;
  maxRetries?: number;
  /** `agent.max_requirement_chars`; default the config's. */
  maxRequirementChars?: number;
  /** `store` keys replacing the default (SQLite file and data dir in the world's temp dir). */
  store?: Record<string, unknown>;
  /** The config's `tools` section (none by default), or made from the id of the world's `general` channel. */
  tools?: Record<string, unknown> | ((general: string) => Record<string, unknown>);
  /** More top-level config sections (`ops`, `limits`, …). */
  config?: Record<string, unknown>;
}

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const dir = await mkdtemp(join(tmpdir(), 'discord-test-'));
  const discord = await startFakeDiscord({ heartbeatIntervalMs: 1000, ...options.gateway });
  const llm = await startFakeOpenAi({ replies: options.replies ?? [] });
  const coderRole = discord.world.addRole('coder');
  const general = discord.world.addChannel('general');
  const alice = discord.world.addMember('alice', [coderRole]);
  const bob = discord.world.addMember('bob', []);
  const config = parseConfig(
    {
      llm: { provider: 'openai', base_url: llm.url, api_key: 'test', model: 'fake-model', max_retries: 0 },
      agent: { max_retries: options.maxRetries ?? 3, verify: options.verify ?? 'off', ...(options.maxRequirementChars ? { max_requirement_chars: options.maxRequirementChars } : {}) },
      sandbox: { timeout_s: 10 },
      store: { url: `sqlite://${join(dir, 'history.sqlite')}`, data_dir: dir, ...options.store },
      ...(options.tools ? { tools: typeof options.tools === 'function' ? options.tools(general.id) : options.tools } : {}),
      ...options.config,
      discord: { token: 'test-token', application_id: discord.world.applicationId, api_url: discord.apiUrl, ...(typeof options.discord === 'function' ? options.discord({ alice, bob, coderRole }) : options.discord) },
    },
    {},
  );
  let app = await createApp(config);
  let bot = new DiscordBot({ app, settings: options.settings });
  await bot.start();

  const world: World = {
    discord,
    llm,
    dir,
    config,
    get app() {
      return app;
    },
    get bot() {
      return bot;
    },
    general,
    alice,
    bob,
    coderRole,
    from: (user = alice, channelId = general.id) => ({ user, channelId }),
    async restart() {
      await bot.stop(5000);
      await app.close();
      app = await createApp(config);
      bot = new DiscordBot({ app, settings: options.settings });
      await bot.start();
    },
    async threadOf(interactionId) {
      const record = discord.interaction(interactionId);
      return discord.waitFor(
        () => record.originalMessageId && discord.world.channels.has(record.originalMessageId) && record.originalMessageId,
        20_000,
        'a thread from the reply',
      );
    },
    waitMessages(channelId, pattern, count = 1) {
      return discord.waitFor(
        () => {
          const found = discord.messagesIn(channelId).filter((m) => pattern.test(m.content));
          return found.length >= count ? found : undefined;
        },
        30_000,
        `${count} message(s) matching ${pattern} in ${channelId}`,
      );
    },
    async close() {
      await bot.stop(5000).catch(() => undefined);
      await app.close();
      await llm.close();
      await discord.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/** The bot's messages sent through REST (channel messages, webhooks, callbacks) with their bodies. */
export function sentBodies(discord: FakeDiscord): Array<{ path: string; body: Record<string, unknown> }> {
  return discord.calls
    .filter((c) => (c.method === 'POST' || c.method === 'PATCH') && /\/messages|\/webhooks|\/callback/.test(c.path) && c.body)
    .map((c) => ({ path: c.path, body: c.body! }));
}
