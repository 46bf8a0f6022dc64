// A process opening a history store at a given moment, for the format-version test:
// node version-child.mjs <storeUrl> <startAtMs>
// At startAtMs it opens the store (which migrates it), then prints {"version":N} on stdout.
// Uses the built code (npm run build).
import { KeyvHistoryStore } from '../../dist/src/history/keyv-store.js';

const [url, startAt] = process.argv.slice(2);
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
const store = await KeyvHistoryStore.open(url);
const version = await store.formatVersion();
await store.close();
process.stdout.write(JSON.stringify({ version }));
