/**
 * First requests and one click: each case's first request is asked in a channel of its own (no
 * memory), with the independent programs on (`--verify checks`), as a new team meets the bot. Its
 * checker scores the answer shown last; when that is wrong and the run ended unconfirmed with
 * candidates, the scripted teammate clicks the first candidate whose output the checker accepts —
 * the real settle (`Agent.settle`: no LLM call) — and the run's answer is scored again. A right
 * answer left ⚠️ with candidates is confirmed with one click too (the teammate picks the candidate
 * that printed it). Reports the share of first requests that end right after at most one click.
 */
import type { Agent } from '../../src/agent/loop/index.js';
import type { Run } from '../../src/history/types.js';
import { median, pct } from '../shared/stats.js';
import type { TeamCase } from './cases.js';

/** How a first request ended. */
export type FirstOutcome = 'right' | 'right-one-click' | 'wrong';

/** One first request. */
export interface FirstResult {
  id: string;
  /** Where it was asked, and its run (to read it back from the history). */
  conversationId: string;
  runId: string;
  outcome: FirstOutcome;
  /** The run's status before any click (`success`, `unverified`, `failed`). */
  status: string;
  /** How many candidates the run offered (0: none). */
  candidates: number;
  /** The candidate clicked, when one was. */
  clicked?: number;
  /** Why the answer shown last is wrong (the checker's reason), before any click. */
  reason: string;
  /** Time to the run's end, in s (a click adds no model time). */
  seconds: number;
}

/** The answer a run shows last: the stdout of its last attempt that ran. */
export function shownStdout(run: Run): string {
  return [...run.attempts].reverse().find((a) => a.result)?.result?.stdout ?? '';
}

/** Asks a case's first request in a fresh channel; a scripted teammate clicks a right candidate when there is one. */
export async function askFirst(agent: Agent, c: TeamCase): Promise<FirstResult> {
  const conversationId = `bench:first:${c.id}:${Date.now()}`;
  const started = performance.now();
  const run = await agent.run(conversationId, c.request, { inputFiles: c.files, requestedBy: 'asker' });
  const seconds = (performance.now() - started) / 1000;
  const verdict = c.check(shownStdout(run));
  const candidates = run.candidates ?? [];
  const base = { id: c.id, conversationId, runId: run.id, status: run.status, candidates: candidates.length, reason: verdict.pass ? '' : verdict.reason, seconds };
  const unconfirmed = run.status === 'unverified' && candidates.length > 0;
  if (verdict.pass && !unconfirmed) return { ...base, outcome: 'right' };
  const right = unconfirmed ? candidates.find((x) => c.check(x.output).pass) : undefined;
  if (!right) return { ...base, outcome: verdict.pass ? 'right' : 'wrong' };
  const settled = await agent.settle(conversationId, run.id, right.n, { id: 'teammate' });
  const after = c.check(shownStdout(settled.run)).pass && settled.run.status === 'success';
  return { ...base, outcome: after ? 'right-one-click' : 'wrong', clicked: right.n };
}

/** The report of the first requests. */
export function formatFirstReport(provider: string, verify: string, retries: number, results: FirstResult[]): string {
  const n = results.length;
  const count = (o: FirstOutcome) => results.filter((r) => r.outcome === o).length;
  const atMostOne = count('right') + count('right-one-click');
  const offered = results.filter((r) => r.candidates > 0).length;
  return [
    `team set, first requests: ${provider}, verify ${verify}, retries ${retries}: ${n} requests, each in a channel of its own`,
    `right with no click:          ${count('right')}/${n} (${pct(count('right'), n)})`,
    `right after one click:        ${count('right-one-click')}/${n} (${pct(count('right-one-click'), n)})`,
    `end right after at most one click: ${atMostOne}/${n} (${pct(atMostOne, n)})`,
    `offered candidates: ${offered}/${n}; a right one among them: ${count('right-one-click')}/${offered}`,
    `median time to the run's end: ${median(results.map((r) => r.seconds)).toFixed(1)} s`,
    '',
    ...results.map((r) => `${r.id.padEnd(24)} ${r.outcome.padEnd(16)} ${r.status.padEnd(10)} candidates ${r.candidates}${r.clicked ? `, clicked ${r.clicked}` : ''}${r.reason ? `  (${r.reason})` : ''}`),
  ].join('\n');
}
