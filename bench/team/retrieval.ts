/**
 * Retrieval alone, without a model: the teammate teaches one channel the whole set; then, for each
 * paraphrase, which approved examples the recall gives. An example case should get its own example
 * (ranked first); a case taught by a definition has no example of its own, so any example it gets
 * is a false pick (an unrelated request).
 */
import type { HistoryStore } from '../../src/history/types.js';
import { ChannelMemory, inputSummary } from '../../src/memory/channel-memory.js';
import { chooseMemory, rankExamples } from '../../src/memory/recall.js';
import type { MemoryEntry } from '../../src/history/memory.js';
import { Rng } from '../realistic/gen/rng.js';
import { median, percentile } from '../shared/stats.js';
import { profileInputs } from '../../src/data/profile.js';
import type { Executor } from '../../src/sandbox/types.js';
import { TEAM_CASES } from './cases.js';
import { approvedRunId, teach } from './teach.js';

/** Teaches a channel, recalls for every paraphrase, and says how retrieval did. */
export async function retrievalReport(store: HistoryStore, executor: Executor): Promise<string> {
  const memory = new ChannelMemory(store);
  const channel = 'bench:team-retrieval';
  await teach(memory, executor, channel, TEAM_CASES);
  const entries = await memory.list(channel);
  const lines: string[] = [];
  let first = 0;
  let given = 0;
  let examples = 0;
  let falsePicks = 0;
  let others = 0;
  for (const c of TEAM_CASES) {
    const files = inputSummary(await profileInputs(executor, c.files));
    const ranked = rankExamples(entries, c.paraphrase, files);
    const recalled = await memory.recall(channel, c.paraphrase, files);
    const own = approvedRunId(c);
    const wrong = recalled.examples.filter((x) => x.runId !== own);
    others += wrong.length;
    if (c.teach === 'example') {
      examples++;
      if (ranked[0]?.entry.example?.runId === own) first++;
      if (recalled.examples.some((x) => x.runId === own)) given++;
    } else if (recalled.examples.length > 0) falsePicks++;
    const top = ranked.slice(0, 2).map((s) => `${s.entry.example!.runId.replace('r-approved-', '')} ${s.score.toFixed(2)}`);
    lines.push(`${c.id.padEnd(24)} ${c.teach.padEnd(10)} ranked: ${top.join(', ') || '(none over the threshold)'}`);
  }
  const definitions = TEAM_CASES.length - examples;
  const speed = recallSpeed();
  return [
    `retrieval (TF-IDF cosine, ${TEAM_CASES.length} paraphrases, ${examples} approved examples in the channel):`,
    `own example ranked first: ${first}/${examples}; own example given: ${given}/${examples}`,
    `cases taught by a definition (no example of their own) given some example: ${falsePicks}/${definitions}`,
    `examples given that were not the case's own: ${others} over ${TEAM_CASES.length} runs`,
    `recall over a full channel (200 entries: 20 definitions, 180 examples), 200 times: median ${speed.median.toFixed(2)} ms, p99 ${speed.p99.toFixed(2)} ms`,
    '',
    ...lines,
  ].join('\n');
}

/** How long choosing a run's memory takes in a channel at the default bound (200 entries), in ms. */
function recallSpeed(): { median: number; p99: number } {
  const rng = new Rng(42);
  const words = 'revenue units price category order customer active quarter fiscal churn deal discount ticket business headcount margin late shipment conversion visitor cases temperature room net sales refunds tax return purchase region country'.split(' ');
  const text = (n: number) => Array.from({ length: n }, () => rng.pick(words)).join(' ');
  const entries: MemoryEntry[] = Array.from({ length: 200 }, (_, i) => ({
    id: `m${i + 1}`, conversationId: 'c', kind: i < 20 ? 'definition' : 'example', text: text(8), addedBy: 'u', addedAt: '', bytes: 100,
    ...(i < 20 ? {} : { example: { runId: `r${i}`, request: text(10), inputSummary: `f.csv: CSV: 40 data rows, columns: ${text(6)}`, code: 'x = 1\n'.repeat(40) } }),
  }));
  const times: number[] = [];
  for (let k = 0; k < 200; k++) {
    const started = performance.now();
    chooseMemory(entries, text(10), `g.csv: CSV: columns: ${text(5)}`);
    times.push(performance.now() - started);
  }
  return { median: median(times), p99: percentile(times, 99) };
}
