/**
 * Daily token budgets in one process, on Slack and on Discord. Each LLM call is reserved at the
 * most it can cost before it is made: a run whose next call its budget cannot cover stops with
 * its best answer so far, saying which budget, what is left and when it resets, and the call is
 * not made; a request whose budget is spent is refused at admission with that budget and its
 * reset, at no LLM call; another channel, and another user, are not refused.
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

/** A reply whose usage the fake reports: 1,500 tokens (within any call's reservation here: its prompt's bytes + 2,048). */
const costly = (code: string) => ({ content: py(code), usage: { prompt_tokens: 1000, completion_tokens: 500 } });
/** `It resets at 00:00 UTC, in 9 h 51 min.` */
const RESETS = /It resets at 00:00 UTC, in (\d+ h )?\d+ min\./;

describe('budgets (limits.budgets)', () => {
  it('Slack: a run whose next call the channel budget cannot cover stops before it; once spent, the next request is refused at admission', async () => {
    slack = await startSlack({
      replies: [costly('print(undefined_name)'), costly('print("fixed")')],
      maxRetries: 3,
      config: { limits: { budgets: { tokens_per_channel_per_day: 4000, price_per_1k_tokens: 2 } } },
    });
    const w = slack;
    await w.command({ text: 'print something' });
    const root = await w.rootTs();
    await w.finished(root);
    // the first attempt failed and spent 1,500 tokens; the improvement's call (its prompt + 2,048) does not fit in 2,500: not made
    expect(w.llm.requests).toHaveLength(1);
    const thread = allText(w.threadPosts(root));
    expect(thread).toMatch(
      /stopped before the next LLM call: this channel's daily budget of 4,000 LLM tokens \(8\.00 USD\) \(limits\.budgets\.tokens_per_channel_per_day\) has 2,500 left today \(1,500 used, 0 reserved by calls in progress\), and the call may use up to [\d,]+\./,
    );
    expect(thread).toMatch(RESETS);

    // a new request is admitted (the budget is not spent), and stops before its first call, which cannot fit either
    await w.command({ text: 'print another thing' });
    const second = await w.rootTs('C_MAIN', 1);
    await w.finished(second);
    expect(allText(w.threadPosts(second))).toContain("stopped before the next LLM call: this channel's daily budget of 4,000 LLM tokens");
    expect(w.llm.requests).toHaveLength(1);

    // spent (another process's runs): refused at admission, with no LLM call
    const store = await KeyvHistoryStore.open(w.config.store.url);
    await store.usage.add({ day: utcDay(), channel: 'slack:T0001:C_MAIN', user: 'slack:T0001:U_ELSE' }, { promptTokens: 2500 });
    await store.close();
    const refused = await w.command({ text: 'print a third thing' });
    const text = JSON.stringify(refused.body);
    expect(text).toContain('This channel has used its daily budget of 4,000 LLM tokens (8.00 USD) (limits.budgets.tokens_per_channel_per_day): 4,000 used today.');
    expect(text).toMatch(RESETS);
    await new Promise((r) => setTimeout(r, 300));
    expect(w.llm.requests).toHaveLength(1);

    // another channel has its own budget
    await w.command({ text: 'print fixed elsewhere', channel_id: 'C_OTHER' });
    await w.finished(await w.rootTs('C_OTHER'));
    expect(w.llm.requests).toHaveLength(2);
    // the ledger holds the day's tokens per channel, never past the budget
    const reader = await KeyvHistoryStore.open(w.config.store.url);
    const day = await reader.usage.rows(utcDay(), utcDay());
    await reader.close();
    const perChannel = (c: string) => day.filter((r) => r.channel === c).reduce((n, r) => n + r.promptTokens + r.completionTokens, 0);
    expect([perChannel('slack:T0001:C_MAIN'), perChannel('slack:T0001:C_OTHER')]).toEqual([4000, 1500]);

    // the metrics count each refusal once, by budget and stage
    const metrics = await (await fetch(`${w.appUrl}/metrics`)).text();
    expect(metrics).toMatch(/^code_agent_budget_refusals_total\{budget="channel_day",stage="llm_call"\} 2$/m);
    expect(metrics).toMatch(/^code_agent_budget_refusals_total\{budget="channel_day",stage="admission"\} 1$/m);
    expect(metrics).toMatch(/^code_agent_admissions_refused_total\{platform="slack",reason="budget"\} 1$/m);
  }, 90_000);

  it('Slack: an improvement the budget cannot cover is not made; the run keeps its answer, marked unconfirmed with why', async () => {
    slack = await startSlack({ replies: [costly('print("first answer")')], maxRetries: 3, config: { limits: { budgets: { tokens_per_channel_per_day: 4000 } } } });
    const w = slack;
    await w.command({ text: 'print the first answer' });
    const root = await w.rootTs();
    await w.finished(root);
    expect(w.llm.requests).toHaveLength(1);
    await w.reply(root, 'now print it twice');
    const finals = await w.finished(root, 2);
    expect(w.llm.requests).toHaveLength(1);
    const last = allText([finals.at(-1)!]);
    expect(last).toContain('⚠️');
    expect(last).toContain("stopped before the next LLM call: this channel's daily budget of 4,000 LLM tokens (limits.budgets.tokens_per_channel_per_day) has 2,500 left today");
    const status = w.slack.callsOf('chat.update').filter((c) => c.args.ts === root).at(-1)!;
    expect(String(status.args.text)).toMatch(/Status:\* ⚠️/);
  }, 60_000);

  it('Slack: a run whose checks call does not fit executes its current attempt, then stops', async () => {
    // the program's call (3,000 tokens) fits in 5,000; the checks' call (its prompt + 2,048) then does not
    slack = await startSlack({
      replies: [{ content: py('print("four:", 2 + 2)'), usage: { prompt_tokens: 1000, completion_tokens: 2000 } }],
      verify: 'checks',
      maxRetries: 3,
      config: { limits: { budgets: { tokens_per_channel_per_day: 5000 } } },
    });
    const w = slack;
    await w.command({ text: 'print two plus two' });
    const root = await w.rootTs();
    await w.finished(root);
    expect(w.llm.requests).toHaveLength(1);
    const thread = allText(w.threadPosts(root));
    expect(thread).toContain('four: 4'); // the attempt was executed
    expect(thread).toContain("stopped before the next LLM call: this channel's daily budget of 5,000 LLM tokens (limits.budgets.tokens_per_channel_per_day) has 2,000 left today (3,000 used, 0 reserved by calls in progress)");
  }, 60_000);

  it('Slack: a failed LLM call frees its reservation at once', async () => {
    // one call's reservation fits at a time (two do not): a reservation left behind would hold the next run's call
    slack = await startSlack({ replies: [{ status: 401 }, costly('print("second run")')], maxRetries: 0, config: { limits: { budgets: { tokens_per_channel_per_day: 5000 } } } });
    const w = slack;
    await w.command({ text: 'print the first thing' });
    await w.finished(await w.rootTs());
    await w.command({ text: 'print the second thing' });
    const second = await w.rootTs('C_MAIN', 1);
    await w.finished(second);
    expect(allText(w.threadPosts(second))).toContain('✅');
    expect(w.llm.requests).toHaveLength(2);
    const store = await KeyvHistoryStore.open(w.config.store.url);
    const rows = await store.usage.rows(utcDay(), utcDay());
    await store.close();
    expect(rows.reduce((n, r) => n + r.promptTokens + r.completionTokens, 0)).toBe(1500); // the failed call reported nothing
  }, 60_000);

  it('Discord: a user over their daily budget is refused privately; a user whose next call does not fit sees why in the thread', async () => {
    const w = await startDiscord({
      replies: [{ content: py('print(1)'), usage: { prompt_tokens: 300, completion_tokens: 100 } }],
      maxRetries: 0,
      config: { limits: { budgets: { tokens_per_user_per_day: 5000 } } },
    });
    discord = w;
    // the ledger is the store's: alice spent her day elsewhere (another channel, another process)
    await w.app.usage.add({ day: utcDay(), channel: 'discord:g:elsewhere', user: `discord:user:${w.alice.id}` }, { promptTokens: 4900, completionTokens: 100 });
    const i = w.discord.slash('run', { requirement: 'print 1' }, w.from(w.alice));
    await w.discord.waitFor(() => w.discord.interaction(i.id).callbacks.length > 0);
    const cb = w.discord.interaction(i.id).callbacks[0]!;
    expect(cb.data!.flags).toBe(64);
    expect(String(cb.data!.content)).toContain('You have used your daily budget of 5,000 LLM tokens (limits.budgets.tokens_per_user_per_day): 5,000 used today.');
    expect(String(cb.data!.content)).toMatch(RESETS);
    await new Promise((r) => setTimeout(r, 300));
    expect(w.llm.requests).toHaveLength(0);

    // bob has tokens left: his run is made (400 tokens)
    const j = w.discord.slash('run', { requirement: 'print 1' }, w.from(w.bob));
    await w.waitMessages(await w.threadOf(j.id), /Success|success/);
    expect(w.llm.requests).toHaveLength(1);
    // then he spends 2,600 elsewhere: 3,000 used, and his next run's call (its prompt + 2,048) does not fit in 2,000
    await w.app.usage.add({ day: utcDay(), channel: 'discord:g:elsewhere', user: `discord:user:${w.bob.id}` }, { promptTokens: 2600 });
    const k = w.discord.slash('run', { requirement: 'print 2' }, w.from(w.bob));
    const [stopped] = await w.waitMessages(await w.threadOf(k.id), /stopped before the next LLM call/);
    expect(String(stopped!.content)).toMatch(
      /stopped before the next LLM call: your daily budget of 5,000 LLM tokens \(limits\.budgets\.tokens_per_user_per_day\) has 2,000 left today \(3,000 used, 0 reserved by calls in progress\), and the call may use up to [\d,]+\. It resets at 00:00 UTC, in (\d+ h )?\d+ min\./,
    );
    expect(w.llm.requests).toHaveLength(1);
  }, 60_000);
});
