// A process reserving LLM tokens against one channel's daily budget, for the reservations' atomicity test:
// node reserve-child.mjs <storeUrl> <day> <channel> <user> <count> <tokens> <channelLimit> <ttlMs> <startAtMs> <settle|leave>
// At startAtMs it makes <count> reservations of <tokens> at once and prints
// {"held":<reservations got>,"refused":[budget names]} and a newline on stdout. `settle`: then, once
// a line arrives on stdin (every process has reserved), settles each one it got with a real usage
// of 200 prompt + 100 completion tokens and closes the store; `leave`: exits at once, as a crashed
// process would, its reservations left in the store. Uses the built code (npm run build).
import { randomUUID } from 'node:crypto';
import { KeyvHistoryStore } from '../../dist/src/history/keyv-store.js';

const [url, day, channel, user, count, tokens, channelLimit, ttlMs, startAt, mode] = process.argv.slice(2);
const store = await KeyvHistoryStore.open(url);
const key = { day, channel, user };
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
const results = await Promise.all(
  Array.from({ length: Number(count) }, async () => {
    const id = randomUUID();
    const result = await store.usage.reserve({ id, key, tokens: Number(tokens), channelLimit: Number(channelLimit), ttlMs: Number(ttlMs) });
    return { id, result };
  }),
);
const held = results.filter((r) => r.result.held);
process.stdout.write(JSON.stringify({ held: held.length, refused: results.filter((r) => !r.result.held).map((r) => r.result.budget) }) + '\n');
if (mode === 'leave') process.exit(0);
await new Promise((r) => process.stdin.once('data', r));
await Promise.all(held.map((r) => store.usage.settle(r.id, key, { llmCalls: 1, promptTokens: 200, completionTokens: 100 })));
await store.close();
