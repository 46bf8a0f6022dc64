/**
 * The shared chat keys mapped once: every platform's settings carry the same figures for the same
 * keys, an absent section gets the schema's defaults (restated nowhere else), and a platform's
 * own keys stay its own.
 */
import { describe, expect, it } from 'vitest';
import { chatSettings } from '../../src/chat/chat-settings.js';
import { chatSchema } from '../../src/config/schema.js';
import { parseConfig } from '../../src/config/load.js';
import { slackSettings } from '../../adapters/slack/settings.js';
import { settingsFrom } from '../../adapters/discord/context.js';
import { matrixSettings } from '../../adapters/matrix/settings.js';

const KEYS = { max_queue_per_channel: 2, max_input_file_mb: 1.5, max_input_files: 3, dedupe_ttl_s: 60, history_limit: 7 };
const MAPPED = { maxQueuePerChannel: 2, inputLimits: { maxFiles: 3, maxBytes: 1572864 }, dedupeTtlMs: 60_000, historyLimit: 7 };

describe('chatSettings', () => {
  it('maps the keys to the units the pipeline uses', () => {
    expect(chatSettings(KEYS)).toEqual(MAPPED);
  });

  it("gives an absent section the schema's defaults", () => {
    const defaults = chatSchema.parse({});
    expect(chatSettings(undefined)).toEqual({
      maxQueuePerChannel: defaults.max_queue_per_channel,
      inputLimits: { maxFiles: defaults.max_input_files, maxBytes: defaults.max_input_file_mb * 1024 * 1024 },
      dedupeTtlMs: defaults.dedupe_ttl_s * 1000,
      historyLimit: defaults.history_limit,
    });
  });

  it('is what every platform reads: the same keys give the same settings on Slack, Discord and Matrix', () => {
    const config = parseConfig(
      {
        slack: { bot_token: 'xoxb-1', signing_secret: 's', ...KEYS },
        discord: { token: 'd', allowed_users: ['1'], ...KEYS },
        matrix: { homeserver_url: 'https://m.example.org', access_token: 't', ...KEYS },
      },
      {},
    );
    for (const settings of [slackSettings(config), settingsFrom(config.discord), matrixSettings(config)]) expect(settings).toMatchObject(MAPPED);
    expect(settingsFrom(config.discord).access.users).toEqual(['1']);
  });

  it("gives Discord without a section the same defaults as a section with none of the keys", () => {
    const bare = parseConfig({ discord: {} }, {});
    const { attachmentOrigins: _a, ...absent } = settingsFrom(undefined);
    const { attachmentOrigins: _b, ...empty } = settingsFrom(bare.discord);
    expect(absent).toEqual(empty);
    expect(absent).toMatchObject(chatSettings(undefined));
  });

  it('refuses a bad value of a shared key with where it is', () => {
    expect(() => parseConfig({ discord: { max_input_files: 0 } }, {})).toThrow(/discord\.max_input_files/);
  });
});
