/**
 * Retrieval alone, without a model: the teammate teaches one channel the whole set; then, for each
 * paraphrase, which approved examples the recall gives. An example case should get its own example
 * (ranked first); a case taught by a definition has no example of its own, so any example it gets
 * is a false pick (an unrelated request).
 */
import type { HistoryStore } from '../../src/history/types.js';
import { ChannelMemory, inputSummary } from '../../src/memory/channel-memory.js';
import { rankExamples } from '../../src/memory/recall.js';
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
  return [
    `retrieval (TF-IDF cosine, ${TEAM_CASES.length} paraphrases, ${examples} approved examples in the channel):`,
    `own example ranked first: ${first}/${examples}; own example given: ${given}/${examples}`,
    `cases taught by a definition (no example of their own) given some example: ${falsePicks}/${definitions}`,
    `examples given that were not the case's own: ${others} over ${TEAM_CASES.length} runs`,
    '',
    ...lines,
  ].join('\n');
}
