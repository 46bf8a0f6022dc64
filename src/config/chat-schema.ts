/**
 * The chat platforms' sections of `config.yaml` (`slack`, `discord`, `matrix`; part of `schema.ts`'s
 * `configSchema`): the keys every platform has (`chatSchema`), and each platform's own.
 */
import { z } from 'zod';
import { idList, int, num, optionalString, optionalUrl } from './schema-parts.js';

/**
 * The keys every chat platform's section has (`slack`, `discord`, `matrix`), with their defaults:
 * mapped once to the pipeline's settings by src/chat/chat-settings.ts.
 */
export const chatSchema = z
  .object({
    /** Jobs waiting or running in one channel, at most. */
    max_queue_per_channel: int(5),
    /** Largest attached file placed in the sandbox, in MB. */
    max_input_file_mb: num(10),
    /** Most attached files taken from one message. */
    max_input_files: int(5),
    /** How long a delivery id (event, command, interaction or message id) is remembered for deduplication, in s. */
    dedupe_ttl_s: int(3600),
    /** Runs listed by /history. */
    history_limit: int(10),
  })
  .strict();

/** The shared chat keys of a platform's section, validated. */
export type ChatKeys = z.infer<typeof chatSchema>;

/** Keys every chat adapter has. */
const chatKeys = chatSchema.shape;

/**
 * A Slack slash command name: a slash, then at most 31 lowercase letters, digits, `-` or `_`
 * (https://docs.slack.dev/interactivity/implementing-slash-commands: names are lowercase, without
 * spaces, at most 32 characters).
 */
const slashCommand = (def: string) =>
  z
    .string()
    .regex(/^\/[a-z0-9_-]{1,31}$/, { message: 'expected a slash command name like /run (lowercase letters, digits, - or _; at most 32 characters)' })
    .default(def);

/** Names of the Slack slash commands (change them when another app in the workspace uses the same). */
export const slackCommandsSchema = z
  .object({
    run: slashCommand('/run'),
    generate: slashCommand('/generate'),
    history: slashCommand('/history'),
    show: slashCommand('/show'),
    usage: slashCommand('/usage'),
    remember: slashCommand('/remember'),
    memory: slashCommand('/memory'),
    schedule: slashCommand('/schedule'),
    schedules: slashCommand('/schedules'),
    unschedule: slashCommand('/unschedule'),
    programs: slashCommand('/programs'),
    program: slashCommand('/program'),
  })
  .strict()
  .refine((c) => new Set(Object.values(c)).size === Object.values(c).length, { message: 'the commands need different names' });

/**
 * The `slack` section (docs/slack.md). `port` has no default here: the adapter uses `$PORT`,
 * else 3000 (see `adapters/slack/settings.ts`); 0 picks a free port (tests).
 */
export const slackSchema = z
  .object({
    commands: slackCommandsSchema.default({ run: '/run', generate: '/generate', history: '/history', show: '/show', usage: '/usage', remember: '/remember', memory: '/memory', programs: '/programs', program: '/program', schedule: '/schedule', schedules: '/schedules', unschedule: '/unschedule' }),
    bot_token: optionalString,
    signing_secret: optionalString,
    /** Set → Socket Mode (no public URL needed). */
    app_token: optionalString,
    port: z
      .preprocess(
        (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
        z.number().int().min(0).max(65535).optional(),
      ),
    api_url: optionalString,
    allowed_channels: idList,
    allowed_users: idList,
    /** Who may use `/usage` (user ids); empty: nobody. */
    admin_users: idList,
    ...chatKeys,
  })
  .strict();

/** The `discord` section (docs/discord.md): the bot's token and application, who may use it. */
export const discordSchema = z
  .object({
    token: optionalString,
    application_id: optionalString,
    /** REST base (default https://discord.com/api), for tests and proxies. */
    api_url: optionalString,
    /** Default guild of `discord register-commands`. */
    guild_id: optionalString,
    allowed_guilds: idList,
    /** A thread is allowed when its parent channel is. */
    allowed_channels: idList,
    /** With roles or users set, a member needs one of the roles or to be listed. */
    allowed_roles: idList,
    allowed_users: idList,
    /** Who may use `/usage`: these users, and members with one of `admin_roles`; both empty: nobody. */
    admin_users: idList,
    admin_roles: idList,
    ...chatKeys,
  })
  .strict();

/** A Matrix id of the given sigil (`@user:server`, `!room:server`): the sigil, a localpart, `:`, a server name. */
const matrixId = (sigil: '@' | '!', what: string) =>
  z.string().trim().regex(new RegExp(`^\\${sigil}[^:\\s]+:[^\\s]+$`), { message: `expected a Matrix ${what} like ${sigil}name:example.org` });

/**
 * The `matrix` section (docs/matrix.md): the bot user's homeserver, its access token and user id
 * (`@bot:example.org`; asked of the homeserver when not set), and who may use it, by room id and user id.
 */
export const matrixSchema = z
  .object({
    homeserver_url: optionalUrl,
    access_token: optionalString,
    user_id: optionalString.pipe(matrixId('@', 'user id').optional()),
    /** Room ids (`!abc:example.org`) the bot answers in; empty: every room it is invited to. */
    allowed_rooms: z.array(matrixId('!', 'room id')).default([]),
    /** User ids who may ask; empty: everyone in an allowed room. */
    allowed_users: z.array(matrixId('@', 'user id')).default([]),
    ...chatKeys,
  })
  .strict();
