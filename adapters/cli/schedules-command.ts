/**
 * `code-agent schedules list [--conversation C] [--json]`: the schedules in the store, for scripts
 * and operators (every conversation's by default; one with `--conversation`, its id as the history
 * keeps it, e.g. `slack:T1:C1`). Read only: a terminal runs no scheduler (schedules post in chat
 * channels; their ticks are run by the chat app, or by queue workers).
 */
import type { Config } from '../../src/config/schema.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { scheduleLine } from '../../src/schedules/commands.js';
import { nextTicks, tickText } from '../../src/schedules/when.js';
import { EXIT } from './errors.js';

/** Options of `schedules list`. */
export interface SchedulesCliOptions {
  conversation?: string;
  json: boolean;
}

/**
 * Lists the schedules; prints on stdout (`--json`: one JSON array of schedules, each with `next`, its next tick in ISO 8601).
 * @returns the exit code (0)
 * @throws `HistoryStartupError` when the store cannot be opened
 */
export async function runSchedulesCli(config: Config, opts: SchedulesCliOptions, out: (text: string) => void = (t) => process.stdout.write(t)): Promise<number> {
  const store = await KeyvHistoryStore.open(config.store.url);
  try {
    const c = opts.conversation?.trim();
    const all = c ? await store.schedules.list(c) : await store.schedules.all();
    const next = (s: (typeof all)[number]) => (s.paused ? undefined : nextTicks(s.cron, s.timezone, new Date(), 1)[0]);
    if (opts.json) {
      out(`${JSON.stringify(all.map((s) => ({ ...s, next: next(s)?.toISOString() ?? null })))}\n`);
      return EXIT.success;
    }
    if (all.length === 0) {
      out(c ? `no schedules in ${c}\n` : 'no schedules in the store\n');
      return EXIT.success;
    }
    for (const s of all) {
      const n = next(s);
      out(`${c ? '' : `${s.conversationId}  `}${scheduleLine(s)}${n ? `; next ${tickText(n, s.timezone)}` : ''}\n`);
    }
    return EXIT.success;
  } finally {
    await store.close();
  }
}
