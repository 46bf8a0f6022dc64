/**
 * The Matrix bot against a real Synapse, embedded (test/matrix/harness.ts): what only Matrix has —
 * HTML and plain text, threads (`m.thread`), edits, files through the media repository, the 🔁
 * reaction, the access lists, and encrypted rooms refused. The scenarios every platform shares are
 * in test/contract/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_KEY } from '../../adapters/matrix/markup.js';
import { ENCRYPTED_REFUSAL } from '../../adapters/matrix/incoming.js';
import { startMatrixWorld, type MatrixWorld, type SeenEvent } from './harness.js';
import { startCountingServer } from '../helpers/net.js';

const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;

describe('Matrix bot (Synapse, embedded)', () => {
  let w: MatrixWorld;
  let root: string;
  const t = () => w.alice.timeline;
  const finals = (r: string) => t().inThread(r).filter((e) => typeof e.content[RUN_KEY] === 'string');
  const waitFinals = (r: string, n: number) => t().waitFor(() => finals(r).length >= n && finals(r), 60_000, `final #${n}`);
  const threadText = (r: string) => t().inThread(r).map((e) => e.content.body).join('\n');

  beforeAll(async () => {
    w = await startMatrixWorld({ matrix: ({ alice }) => ({ allowed_users: [alice.userId] }) });
  }, 90_000);
  afterAll(async () => {
    await w?.close();
  });

  it('!run: a thread under the request with the code, its output and the final status, in HTML and plain text', async () => {
    w.llm.enqueue(py('print(undefined_name)'), py('print("<b>fixed</b> @room")'));
    root = await w.alice.client.sendText(w.roomId, '!run print the word fixed');
    const [final] = await waitFinals(root, 1);
    expect(final!.content.body).toMatch(/✅ Success · 2 attempts · run \S+/);
    const thread = t().inThread(root);
    // every message is a notice in the thread, with the reply fallback, and mentions nobody
    for (const e of thread.filter((m) => m.sender === w.botUser.userId)) {
      expect(e.content['m.relates_to']).toMatchObject({ rel_type: 'm.thread', event_id: root, is_falling_back: true });
      expect(e.content['m.mentions']).toEqual({});
    }
    const code = thread.find((e) => /Attempt 2/.test(e.content.body) && e.content.formatted_body?.includes('<pre><code class="language-python">'));
    expect(code?.content.formatted_body).toContain('print(&#34;&#60;b&#62;fixed&#60;/b&#62; @\u200broom&#34;)');
    const text = threadText(root);
    expect(text).toContain('NameError');
    expect(text).toContain('<b>fixed</b> @\u200broom'); // the output, escaped in HTML, never a room ping
    // the progress line was edited in place: it ends as "Finished"
    expect(thread.some((e) => /✅ Finished after/.test(e.content.body))).toBe(true);
    // the bot put 🔁 under its final message: clients show it as a button
    await t().waitFor(() => t().events.some((e) => e.type === 'm.reaction' && e.sender === w.botUser.userId && e.content['m.relates_to']?.event_id === final!.event_id && e.content['m.relates_to']?.key === '🔁'), 10_000, 'the bot\'s 🔁');
  });

  it('a reply in the thread improves the run with its text', async () => {
    w.llm.enqueue(py('print("better")'));
    await w.alice.client.sendMessage(w.roomId, { msgtype: 'm.text', body: 'print better instead', 'm.relates_to': { rel_type: 'm.thread', event_id: root, is_falling_back: true, 'm.in_reply_to': { event_id: root } } });
    await waitFinals(root, 2);
    expect(threadText(root)).toContain('better');
    expect(JSON.stringify(w.llm.requests.at(-1)!.messages)).toContain('print better instead');
  });

  it('a 🔁 reaction on the final message runs the latest code again, without the LLM', async () => {
    const asked = w.llm.requests.length;
    await w.alice.client.sendEvent(w.roomId, 'm.reaction', { 'm.relates_to': { rel_type: 'm.annotation', event_id: finals(root).at(-1)!.event_id, key: '🔁' } });
    const all = await waitFinals(root, 3);
    expect(all[2]!.content.body).toMatch(/Success · 4 attempts/);
    expect(w.llm.requests.length).toBe(asked);
  });

  it('a file sent in the room reaches the work dir of the run that mentions the bot; an artifact comes back as media', async () => {
    const csv = Buffer.from('n\n3\n4\n');
    const url = await w.alice.client.uploadContent(csv, 'text/csv', 'nums.csv');
    await w.alice.client.sendMessage(w.roomId, { msgtype: 'm.file', body: 'nums.csv', url, info: { mimetype: 'text/csv', size: csv.length } });
    w.llm.enqueue(py('import csv\ntotal = sum(int(r["n"]) for r in csv.DictReader(open("nums.csv")))\nopen("total.txt", "w").write(f"total={total}")\nprint("done")'));
    const asked = await w.alice.client.sendMessage(w.roomId, { msgtype: 'm.text', body: 'codebot: add up nums.csv into total.txt', 'm.mentions': { user_ids: [w.botUser.userId] } });
    await waitFinals(asked, 1);
    expect(JSON.stringify(w.llm.requests.at(-1)!.messages)).toContain('nums.csv');
    const file = t().inThread(asked).find((e) => e.content.msgtype === 'm.file' && e.content.body === 'total.txt') as SeenEvent;
    expect(file.content.url).toMatch(/^mxc:\/\//);
    const [, server, media] = /^mxc:\/\/([^/]+)\/(.+)$/.exec(file.content.url)!;
    const res = await fetch(`${w.hs.url}/_matrix/client/v1/media/download/${server}/${media}`, { headers: { authorization: `Bearer ${w.alice.user.accessToken}` } });
    expect(await res.text()).toBe('total=7');
  });

  it('a file event pointing outside the homeserver is never fetched (the token never leaves it); the thread says it was not used', async () => {
    const elsewhere = await startCountingServer('stolen');
    try {
      await w.alice.client.sendMessage(w.roomId, { msgtype: 'm.file', body: 'x.csv', url: `${elsewhere.url}/x.csv`, info: { size: 6 } });
      await w.alice.client.sendMessage(w.roomId, { msgtype: 'm.file', body: 'y.csv', url: 'mxc://localhost/../../_synapse/admin/v1/users', info: { size: 6 } });
      w.llm.enqueue(py('print("ok")'));
      const asked = await w.alice.client.sendText(w.roomId, '!run print ok');
      await waitFinals(asked, 1);
      expect(threadText(asked)).toMatch(/Not used: x\.csv: not hosted by the platform; y\.csv: not hosted by the platform/);
      expect(elsewhere.hits()).toBe(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('!history lists the runs and !show shows one, as replies to the command', async () => {
    const h = await w.alice.client.sendText(w.roomId, '!history');
    const [history] = await t().waitFor(() => (t().answersTo(h).length ? t().answersTo(h) : undefined), 20_000, 'the history');
    expect(history!.content.body).toContain('print the word fixed');
    expect(history!.content.body).toContain('add up nums.csv');
    expect(history!.content.body).not.toContain('codebot:'); // the mention is not part of the requirement
    const runId = String(finals(root)[0]!.content[RUN_KEY]);
    const s = await w.alice.client.sendText(w.roomId, `!show ${runId}`);
    const [shown] = await t().waitFor(() => (t().answersTo(s).length ? t().answersTo(s) : undefined), 20_000, 'the show answer');
    expect(shown!.content.body).toContain(`Run ${runId}`);
    expect(shown!.content.body).toContain('print("better")');
  });

  it('!remember keeps a definition for the room, the next run reads it and says so, and !memory lists it', async () => {
    const r = await w.alice.client.sendText(w.roomId, '!remember revenue = units × unit_price');
    const [remembered] = await t().waitFor(() => (t().answersTo(r).length ? t().answersTo(r) : undefined), 20_000, 'the remember answer');
    expect(remembered!.content.body).toMatch(/Remembered for/);
    expect(remembered!.content.body).toMatch(/!memory forget \S+/);
    w.llm.enqueue(py('print(3 * 4)'));
    const asked = await w.alice.client.sendText(w.roomId, '!run print the revenue of 3 units at 4');
    await waitFinals(asked, 1);
    expect(JSON.stringify(w.llm.requests.at(-1)!.messages)).toContain('revenue = units * unit_price'); // the prompt writes × as Python does
    expect(threadText(asked)).toMatch(/📌 used from this channel's memory:[\s\S]*revenue = units × unit_price/);
    const m = await w.alice.client.sendText(w.roomId, '!memory');
    const [listed] = await t().waitFor(() => (t().answersTo(m).length ? t().answersTo(m) : undefined), 20_000, 'the memory list');
    expect(listed!.content.body).toContain('revenue = units × unit_price');
  });

  it('!generate writes the code without running it; 🔁 on its last message runs it', async () => {
    w.llm.enqueue(py('print(6 * 7)'));
    const asked = await w.alice.client.sendText(w.roomId, '!generate print six times seven');
    const [generated] = await waitFinals(asked, 1);
    expect(generated!.content.body).toMatch(/📝 Code generated \(not run\)/);
    expect(generated!.content.body).toMatch(/React 🔁 to run it\./);
    expect(threadText(asked)).not.toMatch(/Result of attempt/);
    await w.alice.client.sendEvent(w.roomId, 'm.reaction', { 'm.relates_to': { rel_type: 'm.annotation', event_id: generated!.event_id, key: '🔁' } });
    await waitFinals(asked, 2);
    expect(threadText(asked)).toMatch(/Result of attempt 2[\s\S]*42/);
  });

  it('the access list refuses bob, with a reply and no LLM call', async () => {
    const asked = w.llm.requests.length;
    const e = await w.bob.client.sendText(w.roomId, '!run print(1)');
    const [refusal] = await t().waitFor(() => (t().answersTo(e).length ? t().answersTo(e) : undefined), 20_000, 'the refusal');
    expect(refusal!.content.body).toMatch(/not on the list of people who may use this bot/);
    expect(t().inThread(e)).toHaveLength(0);
    expect(w.llm.requests.length).toBe(asked);
  });

  it('an end-to-end encrypted room is refused with a clear message; nothing runs there', async () => {
    const asked = w.llm.requests.length;
    const { id: room, timeline: seen } = await w.room([{ type: 'm.room.encryption', state_key: '', content: { algorithm: 'm.megolm.v1.aes-sha2' } }]);
    // the bot says so as it joins; a request sent there (unencrypted, as a client without E2EE would) starts nothing
    const e = await w.alice.client.sendText(room, '!run print(1)');
    await seen.waitFor(() => seen.events.some((m) => m.sender === w.botUser.userId && m.content.body === ENCRYPTED_REFUSAL), 20_000, 'the refusal');
    await new Promise((r) => setTimeout(r, 1500));
    expect(seen.inThread(e)).toHaveLength(0);
    expect(w.llm.requests.length).toBe(asked);
  });

  it('a room that turns encryption on while the bot is in it is told so, and its requests are refused from then on', async () => {
    const asked = w.llm.requests.length;
    await w.alice.client.sendStateEvent(w.roomId, 'm.room.encryption', '', { algorithm: 'm.megolm.v1.aes-sha2' });
    await t().waitFor(() => t().events.some((m) => m.sender === w.botUser.userId && m.content.body === ENCRYPTED_REFUSAL), 20_000, 'the refusal');
    const e = await w.alice.client.sendText(w.roomId, '!run print(2)');
    await new Promise((r) => setTimeout(r, 1500));
    expect(t().inThread(e)).toHaveLength(0);
    expect(w.llm.requests.length).toBe(asked);
  });
});
