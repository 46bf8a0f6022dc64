// A second (and third) process on one history store, for the store contract suite:
// node store-child.mjs <storeUrl> <conversationId> <runPrefix> <count> <eventPrefix> <events> <startAtMs>
// At startAtMs it saves <count> runs at once and claims <events> event ids at once, then prints
// {"claimed":[ids it saw first]} on stdout. Uses the built code (npm run build).
import { KeyvHistoryStore } from '../../dist/src/history/keyv-store.js';

const [url, conv, prefix, count, eventPrefix, events, startAt] = process.argv.slice(2);
const store = await KeyvHistoryStore.open(url);
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
const now = new Date().toISOString();
const saves = Array.from({ length: Number(count) }, (_, i) =>
  store.saveRun({ id: `${prefix}${i}`, conversationId: conv, requirement: `r${i}`, status: 'success', attempts: [], createdAt: now, updatedAt: now }),
);
const claims = Array.from({ length: Number(events) }, async (_, i) =>
  (await store.markEventSeen(`${eventPrefix}${i}`, 60_000)) ? `${eventPrefix}${i}` : undefined,
);
await Promise.all(saves);
const claimed = (await Promise.all(claims)).filter(Boolean);
await store.close();
process.stdout.write(JSON.stringify({ claimed }));
