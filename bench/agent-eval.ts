/**
 * Does auto-fix help? Runs the agent on HumanEval problems with `max_retries 0` and with
 * `max_retries N` (default 3), checks each final program with the problem's hidden tests in the
 * sandbox, and prints pass rates, tokens, median seconds per problem, how often the fix loop turned
 * a failure into a pass, and the local provider's tokens/s and time to first token.
 *
 *   npm run build && node dist/bench/agent-eval.js --limit 20
 *   node dist/bench/agent-eval.js --base-url http://localhost:11434/v1 --model qwen2.5-coder:1.5b
 *   # one shard per core, then one report:
 *   node dist/bench/agent-eval.js --threads 1 --limit 82 --json a.json &
 *   node dist/bench/agent-eval.js --threads 1 --offset 82 --json b.json; wait
 *   node dist/bench/agent-eval.js --merge a.json b.json
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../src/history/keyv-store.js';
import type { CompletionTiming } from '../src/llm/local.js';
import { parseEvalArgs, type EvalArgs } from './agent-eval/args.js';
import { loadProblems } from './agent-eval/dataset.js';
import { UsageError } from './shared/errors.js';
import { buildExecutor, buildProvider, disposeProvider } from './shared/provider.js';
import { writeSummary } from './shared/summary-file.js';
import { evaluateProblem, type ProblemResult } from './agent-eval/evaluate.js';
import { mergeSummaries, readSummaries } from './agent-eval/merge.js';
import { formatReport, type EvalSummary } from './agent-eval/report.js';

async function main(): Promise<void> {
  const args = parseEvalArgs(process.argv.slice(2));
  if (args.merge.length) return printMerged(args);
  const problems = loadProblems(args.dataset).slice(args.offset, args.offset + args.limit);
  const timings: CompletionTiming[] = [];
  const llm = await buildProvider(args, timings);
  const workDir = mkdtempSync(join(tmpdir(), 'agent-eval-'));
  const executor = buildExecutor(args.timeoutS);
  const agent = new Agent({
    llm,
    executor,
    store: new KeyvHistoryStore(new Map()),
    artifactRoot: join(workDir, 'artifacts'),
    maxRetries: args.retries,
    verify: args.verify,
  });
  const results: ProblemResult[] = [];
  const summary: EvalSummary = {
    provider: llm.name,
    retries: args.retries,
    separate: args.separate,
    examples: args.examples,
    verify: args.verify,
    results,
    timings,
  };
  process.stderr.write(`evaluating ${problems.length} problems with ${llm.name}\n`);
  try {
    for (const [i, problem] of problems.entries()) {
      const r = await evaluateProblem(agent, executor, problem, {
        retries: args.retries,
        separate: args.separate,
        workDir,
        style: args.examples,
      });
      results.push(r);
      const mark = (p: boolean) => (p ? 'pass' : 'FAIL');
      process.stderr.write(
        `[${i + 1}/${problems.length}] ${r.taskId}: retries 0 ${mark(r.base.pass)}, retries ${args.retries} ${mark(r.fixed.pass)}` +
          ` (${r.fixed.attempts} calls, ${r.fixed.tokens} tokens, ${r.fixed.seconds.toFixed(1)} s)\n`,
      );
      // after every problem, so that a run stopped early keeps what it measured (--merge reads it)
      if (args.json) writeSummary(args.json, summary);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    await disposeProvider(llm);
  }
  process.stdout.write(`${formatReport(summary)}\n`);
}

/** `--merge`: one report (and optionally one `--json`) from the summaries of shard runs. */
function printMerged(args: EvalArgs): void {
  const summary = mergeSummaries(readSummaries(args.merge));
  process.stdout.write(`${formatReport(summary)}\n`);
  if (args.json) writeSummary(args.json, summary);
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`agent-eval: ${err.message}\n`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(`agent-eval: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
