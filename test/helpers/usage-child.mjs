// A process adding to the usage ledger of a store, for the ledger's atomicity test:
// node usage-child.mjs <storeUrl> <day> <channel> <user> <count> <startAtMs>
// At startAtMs it makes <count> additions at once (1 prompt token, 2 completion tokens, 1 run each),
// then prints {"done":<count>} on stdout. Uses the built code (npm run build).
import { KeyvHistoryStore } from '../../dist/src/history/keyv-store.js';

const [url, day, channel, user, count, startAt] = process.argv.slice(2);
const store = await KeyvHistoryStore.open(url);
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
await Promise.all(Array.from({ length: Number(count) }, () => store.usage.add({ day, channel, user }, { runs: 1, promptTokens: 1, completionTokens: 2 })));
await store.close();
process.stdout.write(JSON.stringify({ done: Number(count) }));
