// A process that takes a run's turn lease and then waits to be killed, for the store contract suite:
// node turn-child.mjs <storeUrl> <runId> <ttlMs>
// Prints "held" once it holds the lease (it never renews nor releases it). Uses the built code (npm run build).
import { KeyvHistoryStore } from '../../dist/src/history/keyv-store.js';

const [url, runId, ttl] = process.argv.slice(2);
const store = await KeyvHistoryStore.open(url);
if (!(await store.takeTurn(runId, `child-${process.pid}`, Number(ttl)))) {
  process.stdout.write('busy\n');
  process.exit(1);
}
process.stdout.write('held\n');
setInterval(() => {}, 1000);
