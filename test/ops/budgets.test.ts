/**
 * Daily token budgets in one process, on Slack and on Discord: a run that crosses its channel's
 * budget finishes its current attempt and stops (no further LLM call), saying which budget and
 * when it resets; the next request is refused at admission with that message and costs no LLM
 * call; another channel, and a re-run (no LLM call), are not refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld as startSlack, type World as SlackWorld } from '../slack/harness.js';
import { startWorld as startDiscord, type World as DiscordWorld } from '../discord/harness.js';
import { utcDay } from '../../src/history/usage.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';

let slack: SlackWorld | undefined;
let discord: DiscordWorld | undefined;
afterEach(async () => {
  await slack?.close();
  await discord?.close();
  slack = discord = undefined;
});

/** A reply whose usage the fake reports: 200 tokens. */
const costly = (code: string) => ({ content: py(code), usage: { prompt_tokens: 150, completion_tokens: 50 } });

describe('budgets (limits.budgets)', () => {
  it('Slack: a run crossing its channel budget stops after its attempt; the next request is refused with the budget and its reset', async () => {
    slack = await startSlack({
      replies: [costly('print(undefined_name)'), costly('print("fixed")')],
      maxRetries: 3,
      config: { limits: { budgets: { tokens_per_channel_per_day: 150, price_per_1k_tokens: 2 } } },
    });
    const w = slack;
    await w.command({ text: 'print something' });
    const root = await w.rootTs();
    await w.finished(root);
    // the first attempt failed and spent 200 tokens: no improvement attempt despite max_retries 3
    expect(w.llm.requests).toHaveLength(1);
    const thread = allText(w.threadPosts(root));
    expect(thread).toContain('stopped after this attempt: this channel has used its daily budget of 150 LLM tokens (0.3000 USD) (limits.budgets.tokens_per_channel_per_day): 200 used today.');
    expect(thread).toMatch(/It resets at 00:00 UTC, in (\d+ h )?\d+ min\./);

    const refused = await w.command({ text: 'print another thing' });
    const text = JSON.stringify(refused.body);
    expect(text).toContain('This channel has used its daily budget of 150 LLM tokens');
    expect(text).toContain('limits.budgets.tokens_per_channel_per_day');
    expect(text).toContain('It resets at 00:00 UTC');
    await new Promise((r) => setTimeout(r, 300));
    expect(w.llm.requests).toHaveLength(1);

    // another channel has its own budget
    await w.command({ text: 'print fixed elsewhere', channel_id: 'C_OTHER' });
    await w.finished(await w.rootTs('C_OTHER'));
    expect(w.llm.requests).toHaveLength(2);
    // the ledger holds the day's tokens per channel
    const store = await KeyvHistoryStore.open(w.config.store.url);
    const day = await store.usage.rows(utcDay(), utcDay());
    await store.close();
    expect(day.map((r) => [r.channel, r.promptTokens + r.completionTokens]).sort()).toEqual([
      ['slack:T0001:C_MAIN', 200],
      ['slack:T0001:C_OTHER', 200],
    ]);
  }, 90_000);

  it('Discord: a user over their daily budget is refused privately, with no LLM call', async () => {
    const w = await startDiscord({ replies: [py('print(1)')], maxRetries: 0, config: { limits: { budgets: { tokens_per_user_per_day: 1000 } } } });
    discord = w;
    // the ledger is the store's: alice spent her day elsewhere (another channel, another process)
    await w.app.usage.add({ day: utcDay(), channel: 'discord:g:elsewhere', user: `discord:user:${w.alice.id}` }, { promptTokens: 900, completionTokens: 100 });
    const i = w.discord.slash('run', { requirement: 'print 1' }, w.from(w.alice));
    await w.discord.waitFor(() => w.discord.interaction(i.id).callbacks.length > 0);
    const cb = w.discord.interaction(i.id).callbacks[0]!;
    expect(cb.data!.flags).toBe(64);
    expect(String(cb.data!.content)).toContain('You have used your daily budget of 1,000 LLM tokens (limits.budgets.tokens_per_user_per_day): 1,000 used today.');
    expect(String(cb.data!.content)).toContain('It resets at 00:00 UTC');
    await new Promise((r) => setTimeout(r, 300));
    expect(w.llm.requests).toHaveLength(0);
    // bob has tokens left
    const j = w.discord.slash('run', { requirement: 'print 1' }, w.from(w.bob));
    await w.waitMessages(await w.threadOf(j.id), /Success|success/);
    expect(w.llm.requests).toHaveLength(1);
  }, 60_000);
});
