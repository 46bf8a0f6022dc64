/**
 * The schedule of the scheduled-run tests of the chat platforms: a team program `squares-report`
 * that prints the first squares and writes them to `squares.csv` (`1,1\r\n2,4\r\n3,9\r\n`), saved
 * in a conversation by someone, and scheduled there every 2 s. The scheduler reads the store's
 * schedules when it starts: restart the bot after this.
 */
import type { App } from '../../src/app/app.js';
import type { NewSchedule } from '../../src/history/schedules.js';

const CODE = 'import csv\nN = 3\nrows = [(i, i * i) for i in range(1, N + 1)]\nwith open("squares.csv", "w", newline="") as f:\n    csv.writer(f).writerows(rows)\nprint("squares:", " ".join(str(s) for _, s in rows))';

/** Where the schedule is made, and by whom (platform ids). */
export interface SquaresPlace {
  conversation: string;
  platform: string;
  channel: string;
  by: { id: string; name: string };
}

/**
 * Saves `squares-report` (approved by `by`) and schedules it every 2 s in `channel`.
 * @returns the schedule as stored (its `id`, e.g. `s1`, is what the tick's root names)
 */
export async function scheduleSquares(store: App['store'], p: SquaresPlace) {
  await store.programs!.save(p.conversation, 'squares-report', {
    code: CODE,
    request: 'write the first squares to squares.csv',
    inputs: { files: [], sources: [], hosts: [] },
    parameters: [],
    runId: 'src-squares',
    approvedBy: p.by.id,
    approvedByName: p.by.name,
    approvedAt: new Date().toISOString(),
  });
  // every 2 s: a faster cron line (six fields, with seconds) than people may type, as the test's clock
  const s: NewSchedule = {
    conversationId: p.conversation,
    platform: p.platform,
    channel: p.channel,
    program: 'squares-report',
    params: {},
    when: '*/2 * * * * *',
    cron: '*/2 * * * * *',
    timezone: 'UTC',
    resultGate: { kind: 'always' },
    workGate: true,
    createdBy: p.by.id,
    createdByName: p.by.name,
    createdAt: new Date().toISOString(),
    state: { failures: 0 },
  };
  return store.schedules!.add(s, { maxPerConversation: 20 });
}
