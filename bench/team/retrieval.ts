/**
 * Retrieval alone, without a model: the teammate teaches one channel the whole set; then, for each
 * paraphrase, which definitions and approved examples the recall gives. A case should get its own
 * convention (ranked first); any other definition or example it gets is a false pick (a
 * convention about something else, which a small model tends to compute too).
 */
import type { HistoryStore } from '../../src/history/types.js';
import { ChannelMemory, recallQuery } from '../../src/memory/channel-memory.js';
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
  let ownDefinition = 0;
  let otherDefinitions = 0;
  const definitionOf = new Map(TEAM_CASES.map((c) => [c.definition, c.id]));
  for (const c of TEAM_CASES) {
    const profile = await profileInputs(executor, c.files);
    const query = recallQuery(c.paraphrase, profile);
    const ranked = rankExamples(entries, c.paraphrase, query.files);
    const recalled = await memory.recall(channel, query);
    const own = approvedRunId(c);
    const wrong = recalled.examples.filter((x) => x.runId !== own);
    others += wrong.length;
    const givenDefinitions = recalled.definitions.map((d) => definitionOf.get(d.text) ?? d.id);
    otherDefinitions += givenDefinitions.filter((id) => id !== c.id).length;
    if (c.teach === 'example') {
      examples++;
      if (ranked[0]?.entry.example?.runId === own) first++;
      if (recalled.examples.some((x) => x.runId === own)) given++;
    } else {
      if (recalled.examples.length > 0) falsePicks++;
      if (givenDefinitions.includes(c.id)) ownDefinition++;
    }
    const top = ranked.slice(0, 2).map((s) => `${s.entry.example!.runId.replace('r-approved-', '')} ${s.score.toFixed(2)}`);
    lines.push(`${c.id.padEnd(24)} ${c.teach.padEnd(10)} examples: ${top.join(', ') || '(none over the threshold)'}; definitions given: ${givenDefinitions.join(', ') || '(none)'}`);
  }
  const definitions = TEAM_CASES.length - examples;
  const alone = await aloneReport(memory, executor);
  const speed = recallSpeed();
  return [
    `retrieval (TF-IDF cosine, ${TEAM_CASES.length} paraphrases, ${examples} approved examples in the channel):`,
    `own example ranked first: ${first}/${examples}; own example given: ${given}/${examples}`,
    `cases taught by a definition (no example of their own) given some example: ${falsePicks}/${definitions}`,
    `examples given that were not the case's own: ${others} over ${TEAM_CASES.length} runs`,
    `own definition given: ${ownDefinition}/${definitions}; definitions given that were not the case's own: ${otherDefinitions} over ${TEAM_CASES.length} runs (${definitions} in the channel)`,
    `own definition given when it is the only entry of its channel's memory: ${alone.given}/${alone.of}${alone.missed.length ? ` (not given: ${alone.missed.join(', ')})` : ''}`,
    `recall over a full channel (200 entries: 20 definitions, 180 examples), 200 times: median ${speed.median.toFixed(2)} ms, p99 ${speed.p99.toFixed(2)} ms`,
    '',
    ...lines,
  ].join('\n');
}

/**
 * Each case taught by a definition, in a channel whose memory holds that definition alone (how a
 * team starts): whether its paraphrase is given it.
 */
async function aloneReport(memory: ChannelMemory, executor: Executor): Promise<{ given: number; of: number; missed: string[] }> {
  const cases = TEAM_CASES.filter((c) => c.teach === 'definition');
  const missed: string[] = [];
  for (const c of cases) {
    const channel = `bench:team-alone:${c.id}`;
    await memory.remember(channel, c.definition, 'teammate');
    const recalled = await memory.recall(channel, recallQuery(c.paraphrase, await profileInputs(executor, c.files)));
    if (!recalled.definitions.some((d) => d.text === c.definition)) missed.push(c.id);
  }
  return { given: cases.length - missed.length, of: cases.length, missed };
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
    chooseMemory(entries, { request: text(10), files: `g.csv: CSV: columns: ${text(5)}`, values: text(20) });
    times.push(performance.now() - started);
  }
  return { median: median(times), p99: percentile(times, 99) };
}
