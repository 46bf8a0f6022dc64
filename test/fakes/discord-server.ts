/**
 * A local fake Discord for tests and benches: REST (test/fakes/discord-rest.ts) and the gateway
 * (test/fakes/discord-gateway.ts) on one port, around one guild (test/fakes/discord-state.ts).
 * Point the real discord.js Client at it with `rest: { api: fake.apiUrl }`; the gateway URL is what
 * `GET /gateway/bot` returns.
 *
 * @example
 * ```ts
 * const fake = await startFakeDiscord();
 * const general = fake.world.addChannel('general');
 * const alice = fake.world.addMember('alice');
 * // … start the bot with discord.api_url = fake.apiUrl, wait for fake.gateway.connected …
 * const i = fake.slash('run', { requirement: 'print 1' }, { user: alice, channelId: general.id });
 * await fake.waitFor(() => fake.interaction(i.id).callbacks.length > 0);
 * await fake.close();
 * ```
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeGateway, type GatewayOptions } from './discord-gateway.js';
import { FakeRest, type InteractionRecord, type RestCall } from './discord-rest.js';
import { CHANNEL, FakeWorld, snowflake, type FakeMessage, type FakeUser } from './discord-state.js';

export { CHANNEL, snowflake, type FakeMessage, type FakeUser, type RestCall, type InteractionRecord };

/** Where an interaction or message comes from. */
export interface From {
  user: FakeUser;
  channelId: string;
  /** A DM: no guild, no member. */
  dm?: boolean;
}

/** The running fake. */
export interface FakeDiscord {
  world: FakeWorld;
  rest: FakeRest;
  gateway: FakeGateway;
  /** REST base for `discord.api_url`, e.g. `http://127.0.0.1:1234/api`. */
  apiUrl: string;
  /** Every REST call so far. */
  calls: RestCall[];
  /** Dispatches a slash command; returns its record. */
  /**
   * A slash command; `files` are attachment options by option name (uploaded by the user, served
   * under `/attachments/…` and described in `data.resolved.attachments`, as Discord does).
   */
  slash(name: string, options: Record<string, string | number | boolean>, from: From, files?: Record<string, { name: string; data: Buffer }>): InteractionRecord;
  /** Clicks a button of a message. */
  click(message: FakeMessage, customId: string, from: From): InteractionRecord;
  /** Submits a modal with text inputs. */
  submitModal(customId: string, values: Record<string, string>, from: From): InteractionRecord;
  /** A user posts a message (optionally with files served by the fake). */
  say(content: string, from: From, files?: Record<string, Buffer>): FakeMessage;
  interaction(id: string): InteractionRecord;
  /** Messages of a channel, oldest first. */
  messagesIn(channelId: string): FakeMessage[];
  /** Polls until `check()` is truthy (default timeout 20 s). */
  waitFor<T>(check: () => T | undefined | false | null, timeoutMs?: number, what?: string): Promise<T>;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1 and a free port. */
export async function startFakeDiscord(options: GatewayOptions = {}): Promise<FakeDiscord> {
  const world = new FakeWorld();
  let gateway!: FakeGateway;
  const rest = new FakeRest(world, (thread) => gateway.dispatch('THREAD_CREATE', thread));
  const server = http.createServer((req, res) => {
    rest.handle(req, res).catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
  gateway = new FakeGateway(server, world, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  rest.baseUrl = `http://127.0.0.1:${port}`;
  rest.gatewayUrl = gateway.url = `ws://127.0.0.1:${port}`;

  function base(type: number, from: From, data: Record<string, unknown>, extra: Record<string, unknown> = {}): InteractionRecord {
    const record: InteractionRecord = {
      id: snowflake(),
      token: `tok-${snowflake()}`,
      channelId: from.channelId,
      dispatchedAt: Date.now(),
      callbacks: [],
      expired: false,
    };
    rest.interactions.set(record.id, record);
    const channel = world.channels.get(from.channelId) ?? { id: from.channelId, type: CHANNEL.dm };
    const who = from.dm
      ? { user: { ...from.user, discriminator: '0', avatar: null, global_name: null }, context: 1 }
      : { guild_id: world.guildId, member: world.memberJson(from.user.id), context: 0, guild_locale: 'en-US' };
    gateway.dispatch('INTERACTION_CREATE', {
      id: record.id,
      application_id: world.applicationId,
      type,
      token: record.token,
      version: 1,
      channel_id: from.channelId,
      channel,
      app_permissions: '2248473465835073',
      locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: {},
      attachment_size_limit: 10 * 1024 * 1024,
      data,
      ...who,
      ...extra,
    });
    return record;
  }

  const fake: FakeDiscord = {
    world,
    rest,
    gateway,
    apiUrl: `http://127.0.0.1:${port}/api`,
    calls: rest.calls,
    slash(name, opts, from, files = {}) {
      const options: Array<{ name: string; type: number; value: string | number | boolean }> = Object.entries(opts).map(([n, value]) => ({ name: n, type: typeof value === 'boolean' ? 5 : typeof value === 'number' ? 4 : 3, value }));
      const attachments: Record<string, Record<string, unknown>> = {};
      for (const [option, file] of Object.entries(files)) {
        const id = snowflake();
        rest.userFiles.set(`${id}/${file.name}`, file.data);
        const url = `${rest.baseUrl}/attachments/${id}/${encodeURIComponent(file.name)}`;
        attachments[id] = { id, filename: file.name, size: file.data.length, url, proxy_url: url, content_type: 'application/octet-stream', ephemeral: true };
        options.push({ name: option, type: 11, value: id });
      }
      return base(2, from, { id: snowflake(), name, type: 1, options, ...(Object.keys(attachments).length ? { resolved: { attachments } } : {}) });
    },
    click(message, customId, from) {
      return base(3, from, { custom_id: customId, component_type: 2 }, { message: world.json(message) });
    },
    submitModal(customId, values, from) {
      const components = Object.entries(values).map(([id, value]) => ({ type: 1, components: [{ type: 4, custom_id: id, value }] }));
      return base(5, from, { custom_id: customId, components });
    },
    say(content, from, files = {}) {
      const id = snowflake();
      const map = new Map(Object.entries(files));
      for (const [name, data] of map) rest.userFiles.set(`${id}/${name}`, data);
      const message = world.addMessage(from.channelId, from.user, { content }, map, rest.baseUrl, id);
      gateway.dispatch('MESSAGE_CREATE', {
        ...world.json(message),
        author: { ...from.user, discriminator: '0', avatar: null, global_name: null },
        ...(from.dm ? {} : { guild_id: world.guildId, member: { ...world.memberJson(from.user.id), user: undefined } }),
      });
      return message;
    },
    interaction(id) {
      const record = rest.interactions.get(id);
      if (!record) throw new Error(`no interaction ${id}`);
      return record;
    },
    messagesIn(channelId) {
      return [...world.messages.values()].filter((m) => m.channel_id === channelId);
    },
    async waitFor(check, timeoutMs = 20_000, what = 'condition') {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value) return value;
        if (Date.now() > end) throw new Error(`fake Discord: timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      await gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
