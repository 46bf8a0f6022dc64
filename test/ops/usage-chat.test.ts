/**
 * `/usage` in Slack (admins only: `slack.admin_users`) and the pieces it is made of: the config's
 * new keys reported by path, the budget's reset time and refusal texts, a call's reservation size, and the chat arguments.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { py, startWorld, type World } from '../slack/harness.js';
import { parseConfig } from '../../src/config/load.js';
import { Budgets } from '../../src/usage/budgets.js';
import { MemoryUsageLedger } from '../../src/history/usage.js';
import { DEFAULT_REPLY_TOKENS, callTokensAtMost, promptTokensAtMost } from '../../src/usage/reservations.js';
import { usageArgs } from '../../src/chat/usage-view.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('/usage in Slack', () => {
  it('answers an admin with the report, and tells anyone else who may', async () => {
    world = await startWorld({ replies: [{ content: py('print(2)'), usage: { prompt_tokens: 40, completion_tokens: 2 } }], maxRetries: 0, slack: { admin_users: ['U_ROOT'] } });
    const w = world;
    await w.command({ text: 'print two' });
    await w.finished(await w.rootTs());
    const refused = JSON.stringify((await w.command({ command: '/usage', text: '' })).body);
    expect(refused).toContain('/usage is for admins only');
    expect(refused).toContain('slack.admin_users');
    const answer = JSON.stringify((await w.command({ command: '/usage', text: 'user 7d', user_id: 'U_ROOT' })).body);
    expect(answer).toMatch(/Usage from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} \(UTC\), by user/);
    expect(answer).toMatch(/slack:T0001:U_ALICE\s+1\s+1\s+40\s+2\s+42/);
    const bad = JSON.stringify((await w.command({ command: '/usage', text: 'lastweek', user_id: 'U_ROOT' })).body);
    expect(bad).toContain('expected a number of days like 30d');
  }, 60_000);
});

describe('the pieces', () => {
  it('reports bad ops and budget keys by their path', () => {
    expect(() => parseConfig({ limits: { budgets: { tokens_per_channel_per_day: -5 } } }, {})).toThrow(/limits\.budgets\.tokens_per_channel_per_day/);
    expect(() => parseConfig({ limits: { budgets: { currency: 'usd' } } }, {})).toThrow(/limits\.budgets\.currency: expected a three-letter currency code/);
    expect(() => parseConfig({ ops: { port: 70000 } }, {})).toThrow(/ops\.port: expected a port number/);
    expect(() => parseConfig({ ops: { prt: 1 } }, {})).toThrow(/ops/);
    const c = parseConfig({ ops: { port: '${OPS_PORT}' }, limits: { budgets: { tokens_per_user_per_day: '${B:-5000}' } } }, { OPS_PORT: '9464' });
    expect(c.ops).toMatchObject({ port: 9464, host: '127.0.0.1', metrics: true });
    expect(c.limits.budgets.tokens_per_user_per_day).toBe(5000);
    expect(parseConfig({}, {}).ops.port).toBeUndefined();
  });

  it('says when a budget resets, from the clock', async () => {
    const at = Date.parse('2030-03-04T21:15:30Z');
    const budgets = new Budgets({ channelTokensPerDay: 10, currency: 'USD' }, new MemoryUsageLedger(), () => at);
    expect(budgets.resetText()).toBe('It resets at 00:00 UTC, in 2 h 45 min.');
    const account = { platform: 'discord', channel: 'discord:g:c', user: 'discord:user:1' };
    expect(await budgets.refusal(account)).toBeUndefined();
    expect(await budgets.refusal({ ...account, platform: 'cli' })).toBeUndefined();
    expect(budgets.stopText(account, { channelTokens: 9, userTokens: 9 })).toBeUndefined();
    expect(budgets.stopText(account, { channelTokens: 10, userTokens: 10 })).toMatch(/^stopped after this attempt: this channel has used its daily budget of 10 LLM tokens/);
  });

  it("reserves a call at its prompt's bytes, template tokens and longest reply, and says why a call was not made", () => {
    const messages = [
      { role: 'system' as const, content: 'abc' },
      { role: 'user' as const, content: 'é😀' }, // 2 + 4 bytes
    ];
    // 16 per call; per message its bytes, its role's and 8
    expect(promptTokensAtMost(messages)).toBe(16 + (3 + 6 + 8) + (6 + 4 + 8));
    expect(callTokensAtMost(messages, 100)).toBe(promptTokensAtMost(messages) + 100);
    expect(callTokensAtMost(messages, undefined)).toBe(promptTokensAtMost(messages) + DEFAULT_REPLY_TOKENS);
    const at = Date.parse('2030-03-04T21:15:30Z');
    const budgets = new Budgets({ userTokensPerDay: 500_000, pricePer1kTokens: 2, currency: 'EUR' }, new MemoryUsageLedger(), () => at);
    expect(budgets.callRefusalText({ budget: 'user_day', limit: 500_000, used: 490_000, reserved: 6000 }, 6341)).toBe(
      'stopped before the next LLM call: your daily budget of 500,000 LLM tokens (1000.00 EUR) (limits.budgets.tokens_per_user_per_day) ' +
        'has 4,000 left today (490,000 used, 6,000 reserved by calls in progress), and the call may use up to 6,341. It resets at 00:00 UTC, in 2 h 45 min.',
    );
  });

  it('reads /usage arguments in any order', () => {
    const now = Date.parse('2030-03-04T12:00:00Z');
    expect(usageArgs('', now)).toEqual({ by: 'channel', from: '2030-02-03' });
    expect(usageArgs('2w day', now)).toEqual({ by: 'day', from: '2030-02-19' });
    expect(usageArgs('user 2030-03-01', now)).toEqual({ by: 'user', from: '2030-03-01' });
    expect(() => usageArgs('0d', now)).toThrow(/expected 1 to 400 days/);
    expect(() => usageArgs('2030-02-30', now)).toThrow(/expected a number of days/);
  });
});

describe('/usage in Discord', () => {
  it('answers an admin privately with the report, and tells anyone else who may', async () => {
    const { startWorld: startDiscord } = await import('../discord/harness.js');
    const w = await startDiscord({ replies: [{ content: py('print(2)'), usage: { prompt_tokens: 30, completion_tokens: 3 } }], maxRetries: 0 });
    try {
      w.bot.ctx.settings.admins.users.push(w.alice.id);
      const run = w.discord.slash('run', { requirement: 'print two' }, w.from(w.alice));
      await w.waitMessages(await w.threadOf(run.id), /success/i);
      const refused = w.discord.slash('usage', {}, w.from(w.bob));
      await w.discord.waitFor(() => w.discord.interaction(refused.id).callbacks.length > 0);
      const cb = w.discord.interaction(refused.id).callbacks[0]!;
      expect(cb.data!.flags).toBe(64);
      expect(String(cb.data!.content)).toContain('discord.admin_users or discord.admin_roles');
      const asked = w.discord.slash('usage', { by: 'user' }, w.from(w.alice));
      await w.discord.waitFor(() => w.discord.world.messages.get(w.discord.interaction(asked.id).originalMessageId ?? '')?.content.includes('by user'), 10_000, 'the report');
      expect(w.discord.interaction(asked.id).callbacks[0]!.data!.flags).toBe(64);
      const content = w.discord.world.messages.get(w.discord.interaction(asked.id).originalMessageId!)!.content;
      expect(content).toMatch(new RegExp(`discord:user:${w.alice.id}\\s+1\\s+1\\s+30\\s+3\\s+33`));
    } finally {
      await w.close();
    }
  }, 60_000);
});
