/**
 * Does verification make answers trustworthy? Runs the agent on the realistic request set
 * (`bench/realistic/requests.ts`: data, plots, text, arithmetic, dates, and input files), with verify `off` and with
 * `--verify` (default `checks`), each at `max_retries N` (default 3) with `max_retries 0` read off the
 * first attempt, scores what the user is shown with each request's independent checker, and prints
 * pass rates, silent failures (✅ but wrong), ⚠️ unverified runs, tokens, time and LLM calls.
 *
 *   npm run build && node dist/bench/realistic.js --threads 1 --limit 10
 *   node dist/bench/realistic.js --base-url http://localhost:11434/v1 --model qwen2.5-coder:1.5b --verify both
 *   node dist/bench/realistic.js --kind files --threads 1     # only the requests about attached files
 *   # shards, then one report:
 *   node dist/bench/realistic.js --threads 1 --limit 17 --json a.json &
 *   node dist/bench/realistic.js --threads 1 --offset 17 --json b.json; wait
 *   node dist/bench/realistic.js --merge a.json b.json
 *   node dist/bench/realistic.js --merge a.json b.json --ids access-4xx-count,tsv-reorder   # only these (to compare runs)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type AgentOptions } from '../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../src/history/keyv-store.js';
import type { CompletionTiming } from '../src/llm/local.js';
import type { Executor } from '../src/sandbox/types.js';
import { CountingProvider } from './shared/counting-provider.js';
import { UsageError } from './shared/errors.js';
import { buildExecutor, buildProvider, disposeProvider } from './shared/provider.js';
import { writeSummary } from './shared/summary-file.js';
import { parseRealisticArgs, type RealisticArgs } from './realistic/args.js';
import { evaluateRequest, type RequestResult, type VerifyMode } from './realistic/evaluate.js';
import { mergeSummaries, readSummaries } from './realistic/merge.js';
import { formatReport, type RealisticSummary } from './realistic/report.js';
import { requestsOfKind } from './realistic/requests.js';
import { comparisonLines, reusedShare } from './realistic/speed-report.js';
import { RecordingExecutor } from './realistic/independents.js';

/** An agent with a verify mode. */
function agentWith(llm: CountingProvider, executor: Executor, artifactRoot: string, retries: number, verify: VerifyMode, adopt = false, runTimeoutS?: number): Agent {
  const deadline: Partial<AgentOptions> = runTimeoutS !== undefined ? { runTimeoutMs: runTimeoutS * 1000 } : {};
  return new Agent({ llm, executor, store: new KeyvHistoryStore(new Map()), artifactRoot, maxRetries: retries, verify, adoptTwoAgainstOne: adopt, ...deadline });
}

const mark = (pass: boolean, status: string) =>
  `${pass ? 'pass' : 'FAIL'}${status === 'success' ? (pass ? '' : ' ✅silent') : status === 'unverified' ? ' ⚠️' : ' ❌'}`;

function progress(i: number, n: number, r: RequestResult, retries: number): string {
  const parts = r.byVerify.map(
    (v) => `verify ${v.verify}: r0 ${mark(v.base.pass, v.base.status)}, r${retries} ${mark(v.fixed.pass, v.fixed.status)} (${v.fixed.calls} calls, ${v.fixed.tokens} tok, ${v.fixed.seconds.toFixed(1)} s)`,
  );
  return `[${i + 1}/${n}] ${r.id} (${r.kind}): ${parts.join(' | ')}\n`;
}

async function main(): Promise<void> {
  const args = parseRealisticArgs(process.argv.slice(2));
  if (args.merge.length) return printMerged(args);
  const requests = requestsOfKind(args.kind)
    .filter((r) => !args.ids || args.ids.includes(r.id))
    .slice(args.offset, args.offset + args.limit);
  const timings: CompletionTiming[] = [];
  const llm = new CountingProvider(await buildProvider(args, timings));
  const executor = new RecordingExecutor(buildExecutor(args.timeoutS));
  const workDir = mkdtempSync(join(tmpdir(), 'realistic-'));
  const modes: VerifyMode[] = args.verify === 'off' ? ['off'] : args.skipOff ? [args.verify] : ['off', args.verify];
  const agents = modes.map((verify) => ({ verify, agent: agentWith(llm, executor, join(workDir, verify), args.retries, verify, args.adopt, args.runTimeoutS) }));
  const results: RequestResult[] = [];
  const summary: RealisticSummary = { provider: llm.name, retries: args.retries, verify: modes, separate: args.separate, results, timings };
  const deadline = args.runTimeoutS === undefined ? '' : args.runTimeoutS === 0 ? ', no run deadline' : `, run deadline ${args.runTimeoutS} s`;
  process.stderr.write(`running ${requests.length} requests with ${llm.name}, verify ${modes.join(' and ')}${deadline}\n`);
  await llm.prepared; // the system prompts read ahead, as a server started before its first request has them
  try {
    for (const [i, request] of requests.entries()) {
      const r = await evaluateRequest({ agents, llm, executor, recorder: executor, retries: args.retries, separate: args.separate }, request);
      results.push(r);
      process.stderr.write(progress(i, requests.length, r, args.retries));
      // after every request, so that a run stopped early keeps what it measured (--merge reads it)
      if (args.json) writeSummary(args.json, summary);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    await disposeProvider(llm.inner);
  }
  process.stdout.write(`${formatReport(summary)}\n`);
}

/**
 * `--merge`: one report (and optionally one `--json`) from the summaries of shard runs; with `--ids`,
 * of those requests only (to compare runs on the same requests; the completion timings stay the shards').
 */
function printMerged(args: RealisticArgs): void {
  const merged = mergeSummaries(readSummaries(args.merge));
  const summary = args.ids ? { ...merged, results: merged.results.filter((r) => args.ids!.includes(r.id)) } : merged;
  process.stdout.write(`${formatReport(summary)}\n`);
  if (args.json) writeSummary(args.json, summary);
  if (args.baseline) process.stdout.write(`\n${againstBaseline(summary, mergeSummaries(readSummaries([args.baseline])))}\n`);
}

/** Each setting's speed figures against the baseline's, on the requests both measured. */
function againstBaseline(after: RealisticSummary, before: RealisticSummary): string {
  const ids = after.results.map((r) => r.id).filter((id) => before.results.some((r) => r.id === id));
  const pick = (s: RealisticSummary, v: number, which: 'base' | 'fixed') => ids.map((id) => s.results.find((r) => r.id === id)!.byVerify[v]![which]);
  const reuse = { before: reusedShare(before.timings), after: reusedShare(after.timings) };
  const lines = [`against the baseline (${ids.length} requests in both; after ÷ before):`];
  after.verify.forEach((verify, v) => {
    const w = before.verify.indexOf(verify);
    if (w < 0) return;
    for (const which of after.retries === 0 ? (['fixed'] as const) : (['base', 'fixed'] as const)) {
      const label = `verify ${verify}, retries ${which === 'base' ? 0 : after.retries}`;
      lines.push('', ...comparisonLines(label, pick(before, w, which), pick(after, v, which), reuse));
    }
  });
  return lines.join('\n');
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`realistic: ${err.message}\n`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(`realistic: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
