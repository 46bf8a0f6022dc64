/**
 * The team set with team programs: a scripted teammate saves each case's first request, answered
 * the team's way, as a team program of one channel (the run approved and saved once); then each
 * paraphrase is asked there. The matcher (src/programs/match.ts: retrieval, then one short LLM call)
 * either finds a program, which runs with no LLM call for code, or finds none, and the request takes
 * the normal path (with the channel's memory). Also asked: near misses, requests on the same files
 * that ask something else, which must match no program. Scores the answer shown, the program
 * matched (right, wrong, none) and the time to the answer.
 */
import { profileInputs } from '../../src/data/profile.js';
import type { Agent } from '../../src/agent/loop/index.js';
import type { HistoryStore, Run } from '../../src/history/types.js';
import type { LlmProvider } from '../../src/llm/types.js';
import type { Executor } from '../../src/sandbox/types.js';
import { matchProgram } from '../../src/programs/match.js';
import { median, pct } from '../shared/stats.js';
import type { TeamCase } from './cases.js';
import { shownStdout } from './first.js';

/** One paraphrase asked in the channel with programs. */
export interface ProgramAsk {
  id: string;
  pass: boolean;
  reason: string;
  /** The program the matcher chose, if any. */
  matched?: string;
  /** `right`: its own case's program; `wrong`: another's; `none`: the normal path answered. */
  match: 'right' | 'wrong' | 'none';
  status: string;
  /** Time to the answer, in s (the match and the run). */
  seconds: number;
  /** Time of the match alone (retrieval and its LLM call), in s. */
  matchSeconds: number;
}

/** A near miss: a request on a case's files that asks something else. */
export interface NearMiss {
  request: string;
  matched?: string;
  matchSeconds: number;
}

/** The `--programs --json` file. */
export interface ProgramsSummary {
  provider: string;
  programs: ProgramAsk[];
  nearMisses: NearMiss[];
}

/** Requests on the set's files that ask for something no saved program computes (each must match none). */
export const NEAR_MISSES: { caseId: string; request: string }[] = [
  { caseId: 'revenue-per-category', request: 'How many rows does sales.csv have?' },
  { caseId: 'orders-per-customer', request: 'Which customer appears first in crm_orders.csv?' },
  { caseId: 'big-deals', request: 'Plot the deal sizes in deals.csv as a histogram.' },
  { caseId: 'headcount', request: 'List the column names of staff.csv.' },
  { caseId: 'room-temperature', request: 'What is the highest temperature recorded in rooms.csv?' },
  { caseId: 'return-customers', request: 'Which product was bought most often in purchases.csv?' },
];

/** The id of the run a case's program was saved from. */
const savedRunId = (c: TeamCase) => `r-saved-${c.id}`;

/**
 * Saves every case's program in `conversationId`, as a person would from a finished run of its first
 * request: the run stored (its answer the case's program, its files profiled by the real profiler),
 * then "Save as team program" under the case's id.
 */
export async function savePrograms(agent: Agent, store: HistoryStore, executor: Executor, conversationId: string, cases: TeamCase[]): Promise<void> {
  for (const c of cases) {
    const now = new Date().toISOString();
    const result = await executor.execute(c.program, { inputFiles: c.files });
    if (!result.success) throw new Error(`the program of ${c.id} failed in the sandbox: ${result.stderr.slice(-300)}`);
    const run: Run = {
      id: savedRunId(c),
      conversationId,
      requirement: c.request,
      status: 'success',
      attempts: [{ index: 1, trigger: 'requirement', code: c.program, result, usage: { promptTokens: 0, completionTokens: 0 }, createdAt: now }],
      createdAt: now,
      updatedAt: now,
      inputProfile: await profileInputs(executor, c.files),
    };
    await store.saveRun(run);
    await agent.programs.save(conversationId, run.id, c.id, { id: 'teammate', name: 'Teammate' });
  }
}

/** Asks a case's paraphrase in the channel with programs: a matched program runs, else the normal path. */
export async function askWithPrograms(agent: Agent, llm: LlmProvider, conversationId: string, c: TeamCase): Promise<ProgramAsk> {
  const started = performance.now();
  const programs = await agent.programs.findPrograms(conversationId);
  const match = await matchProgram(llm, programs, { request: c.paraphrase, fileNames: c.files.map((f) => f.name) });
  const matchSeconds = (performance.now() - started) / 1000;
  let run: Run;
  if (match) {
    const values = Object.fromEntries(Object.entries(match.params).map(([k, v]) => [k, String(v)]));
    const prepared = await agent.programs.prepare(conversationId, match.program.name, values);
    run = await agent.runProgram(conversationId, prepared, { inputFiles: c.files, requestedBy: 'asker' });
  } else {
    run = await agent.run(conversationId, c.paraphrase, { inputFiles: c.files, requestedBy: 'asker' });
  }
  const seconds = (performance.now() - started) / 1000;
  const verdict = c.check(shownStdout(run));
  return {
    id: c.id,
    pass: verdict.pass,
    reason: verdict.reason,
    ...(match ? { matched: match.program.name } : {}),
    match: !match ? 'none' : match.program.name === c.id ? 'right' : 'wrong',
    status: run.status,
    seconds,
    matchSeconds,
  };
}

/** Asks a near miss: only the match is made (a program it matches would answer the wrong question). */
export async function askNearMiss(agent: Agent, llm: LlmProvider, conversationId: string, request: string, fileNames: string[]): Promise<NearMiss> {
  const started = performance.now();
  const match = await matchProgram(llm, await agent.programs.findPrograms(conversationId), { request, fileNames });
  return { request, ...(match ? { matched: match.program.name } : {}), matchSeconds: (performance.now() - started) / 1000 };
}

/** The report: right answers, how each was answered, the wrong matches, the times. */
export function formatProgramsReport(s: ProgramsSummary): string {
  const r = s.programs;
  const n = r.length;
  const count = (m: ProgramAsk['match']) => r.filter((x) => x.match === m).length;
  const falseMatches = s.nearMisses.filter((x) => x.matched);
  return [
    `team set with team programs, ${s.provider}: ${n} paraphrases, each case's first request saved as a program`,
    `right answers: ${r.filter((x) => x.pass).length}/${n} (${pct(r.filter((x) => x.pass).length, n)})`,
    `matched its own program: ${count('right')}/${n}; another program: ${count('wrong')}; none (the normal path): ${count('none')}`,
    `  right answers when its own program ran: ${r.filter((x) => x.match === 'right' && x.pass).length}/${count('right')}; on the normal path: ${r.filter((x) => x.match === 'none' && x.pass).length}/${count('none')}`,
    `median time to the answer: ${median(r.map((x) => x.seconds)).toFixed(1)} s (matched: ${median(r.filter((x) => x.match !== 'none').map((x) => x.seconds)).toFixed(1)} s; the match alone: ${median(r.map((x) => x.matchSeconds)).toFixed(1)} s)`,
    `near misses matched to a program (must be 0): ${falseMatches.length}/${s.nearMisses.length}${falseMatches.length ? ` (${falseMatches.map((x) => `"${x.request}" → ${x.matched}`).join('; ')})` : ''}`,
    '',
    ...r.map((x) => `${x.id.padEnd(24)} ${x.pass ? 'pass' : 'FAIL'} ${x.match.padEnd(5)} ${(x.matched ?? '').padEnd(24)} ${x.seconds.toFixed(1).padStart(6)} s${x.pass ? '' : ` ${x.reason}`}`),
  ].join('\n');
}
