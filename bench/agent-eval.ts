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
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../src/agent/agent.js';
import { KeyvHistoryStore } from '../src/history/keyv-store.js';
import { LocalLlamaProvider, type CompletionTiming } from '../src/llm/local.js';
import { OpenAiProvider } from '../src/llm/openai.js';
import type { LlmProvider } from '../src/llm/types.js';
import { BubblewrapExecutor, limitsFromConfig } from '../src/sandbox/executor.js';
import { sandboxSchema } from '../src/config/schema.js';
import { TEST_MODEL_FILE, testModelsDir } from '../scripts/test-model.js';
import { parseEvalArgs, type EvalArgs } from './agent-eval/args.js';
import { loadProblems } from './agent-eval/dataset.js';
import { UsageError } from './agent-eval/errors.js';
import { evaluateProblem, type ProblemResult } from './agent-eval/evaluate.js';
import { mergeSummaries, readSummaries } from './agent-eval/merge.js';
import { formatReport, type EvalSummary } from './agent-eval/report.js';

async function buildProvider(args: EvalArgs, timings: CompletionTiming[]): Promise<LlmProvider> {
  if (args.baseUrl) {
    return new OpenAiProvider({
      baseUrl: args.baseUrl,
      apiKey: args.apiKey ?? 'none',
      model: args.model ?? 'default',
      temperature: 0,
      maxTokens: args.maxTokens,
      maxRetries: 2,
      timeoutMs: 300_000,
    });
  }
  return LocalLlamaProvider.load({
    modelPath: args.modelPath ?? join(testModelsDir(), TEST_MODEL_FILE),
    contextSize: args.contextSize,
    threads: args.threads,
    temperature: 0,
    maxTokens: args.maxTokens,
    onTiming: (t) => timings.push(t),
  });
}

async function main(): Promise<void> {
  const args = parseEvalArgs(process.argv.slice(2));
  if (args.merge.length) return printMerged(args);
  const problems = loadProblems(args.dataset).slice(args.offset, args.offset + args.limit);
  const timings: CompletionTiming[] = [];
  const llm = await buildProvider(args, timings);
  const workDir = mkdtempSync(join(tmpdir(), 'agent-eval-'));
  const sandbox = sandboxSchema.parse({ timeout_s: args.timeoutS, cpu_time_s: args.timeoutS });
  const executor = new BubblewrapExecutor({ python: sandbox.python, limits: limitsFromConfig(sandbox) });
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
    if (llm instanceof LocalLlamaProvider) await llm.dispose();
  }
  process.stdout.write(`${formatReport(summary)}\n`);
}

/** Writes a summary as `--json` (replacing the file atomically, so a reader never sees half of it). */
function writeSummary(file: string, summary: EvalSummary): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(summary, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
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
