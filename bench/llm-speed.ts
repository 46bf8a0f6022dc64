/**
 * How fast is the local model per kind of call, and what do context reuse, token prediction and
 * batching two requests change? Runs a few realistic requests (`bench/realistic/requests.ts`)
 * through the agent's calls (first attempt, checks, fix attempt, improve from feedback; see
 * `llm-speed/scenario.ts`) on several provider settings side by side, interleaved request by request
 * so that the machine's noise hits every setting alike, and prints medians and ratios against the
 * baseline (one context sequence, no prediction: the provider before slots existed).
 *
 *   npm run build
 *   node dist/bench/llm-speed.js --model-path M.gguf [--draft-model-path D.gguf] [--limit 4] [--threads 1]
 *
 * `--json F` keeps every call (setting, request, kind, timing, reply) in F, rewritten after each request.
 *
 * Settings: `baseline` (1 slot, no prediction, no read-ahead: the provider before this bench),
 * `reuse` (3 slots, system prompts read ahead as the agent does at startup), `reuse+input` (the
 * same with input lookup), `reuse+draft` (with the draft model; only with --draft-model-path);
 * opt-in by name in --settings: `reuse+inputN` / `reuse+draftN`, N tokens predicted per step (they
 * need node-llama-cpp mended with `llm-speed/node-llama-cpp-3.21.1-validated-tokens.patch`, see
 * docs/local-model.md; unmended, all but the first prediction of a step are refuted). Then two first
 * attempts sent at once: `parallel 1` against `parallel 2` (skip with --no-concurrency), and what one
 * evaluation step of 1, 2, 4, 8 tokens costs (`--batch-cost-only` prints just that).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LocalLlamaProvider, type CompletionTiming, type LocalProviderOptions } from '../src/llm/local.js';
import { disposeSharedModels } from '../src/llm/local-runtime.js';
import { SYSTEM_PROMPT } from '../src/agent/replies/index.js';
import { buildMessages } from '../src/agent/loop/index.js';
import { newAttempt } from '../src/agent/run/index.js';
import { CHECKS_PROMPT } from '../src/agent/verification/index.js';
import type { Run } from '../src/history/types.js';
import { TEST_MODEL_FILE, testModelsDir } from '../scripts/test-model.js';
import { buildExecutor } from './shared/provider.js';
import { REQUESTS } from './realistic/requests.js';
import { runScenario } from './llm-speed/scenario.js';
import { formatReport, type ConcurrencyResult, type SettingResult } from './llm-speed/report.js';
import { batchCosts, formatBatchCosts } from './llm-speed/batch-cost.js';

interface Setting {
  name: string;
  options: Partial<LocalProviderOptions>;
}

function parse() {
  const { values } = parseArgs({
    options: {
      'model-path': { type: 'string' },
      'draft-model-path': { type: 'string' },
      limit: { type: 'string', default: '4' },
      offset: { type: 'string', default: '0' },
      threads: { type: 'string', default: '1' },
      'max-tokens': { type: 'string', default: '512' },
      'no-concurrency': { type: 'boolean', default: false },
      settings: { type: 'string' },
      json: { type: 'string' },
      'batch-cost-only': { type: 'boolean', default: false },
    },
  });
  const modelPath = values['model-path'] ?? join(testModelsDir(), TEST_MODEL_FILE);
  const settings: Setting[] = [
    { name: 'baseline', options: { slots: 1 } },
    { name: 'reuse', options: { slots: 3 } },
    { name: 'reuse+input', options: { slots: 3, prediction: 'input' as const } },
    ...(values['draft-model-path'] ? [{ name: 'reuse+draft', options: { slots: 3, prediction: 'draft' as const, draftModelPath: values['draft-model-path'] } }] : []),
  ].filter((s) => !values.settings || s.name === 'baseline' || values.settings.split(',').includes(s.name));
  // opt-in: longer predictions, e.g. --settings reuse,reuse+input,reuse+input4,reuse+draft8
  for (const name of values.settings?.split(',') ?? []) {
    const m = /^reuse\+(input|draft)(\d+)$/.exec(name);
    if (!m) continue;
    if (m[1] === 'draft' && !values['draft-model-path']) throw new Error(`${name} needs --draft-model-path`);
    settings.push({ name, options: { slots: 3, prediction: m[1] as 'input' | 'draft', predictionTokens: Number(m[2]), draftModelPath: values['draft-model-path'] } });
  }
  return {
    modelPath,
    settings,
    limit: Number(values.limit),
    offset: Number(values.offset),
    threads: Number(values.threads),
    maxTokens: Number(values['max-tokens']),
    concurrency: !values['no-concurrency'],
    json: values.json,
    batchCostOnly: values['batch-cost-only'],
  };
}

async function load(args: ReturnType<typeof parse>, options: Partial<LocalProviderOptions>, timings: CompletionTiming[]) {
  return LocalLlamaProvider.load({
    modelPath: args.modelPath,
    threads: args.threads,
    temperature: 0,
    maxTokens: args.maxTokens,
    onTiming: (t) => timings.push(t),
    ...options,
  });
}

function firstAttemptMessages(requirement: string) {
  const run: Run = { id: 'c', conversationId: 'c', requirement, status: 'running', attempts: [], createdAt: '', updatedAt: '' };
  return buildMessages(run, newAttempt(run, 'requirement', ''));
}

/** Two first attempts sent at once, on a provider with `parallel` 1 and then 2 (each warmed up first). */
async function concurrency(args: ReturnType<typeof parse>): Promise<ConcurrencyResult> {
  const [warm, a, b] = [REQUESTS[0]!, REQUESTS[1]!, REQUESTS[2]!];
  const once = async (parallel: number) => {
    const llm = await load(args, { slots: 2, parallel }, []);
    try {
      await llm.complete(firstAttemptMessages(warm.requirement));
      const start = performance.now();
      const ends: number[] = [];
      const replies = await Promise.all(
        [a, b].map(async (r) => {
          const c = await llm.complete(firstAttemptMessages(r.requirement));
          ends.push(performance.now() - start);
          return c.content;
        }),
      );
      return { ms: performance.now() - start, ends, replies };
    } finally {
      await llm.dispose();
    }
  };
  const sequential = await once(1);
  const together = await once(2);
  return {
    sequentialMs: sequential.ms,
    togetherMs: together.ms,
    sequentialEnds: sequential.ends,
    togetherEnds: together.ends,
    sameReplies: sequential.replies.join('\0') === together.replies.join('\0'),
  };
}

async function main(): Promise<void> {
  const args = parse();
  if (args.batchCostOnly) {
    process.stdout.write(`${formatBatchCosts(await batchCosts(args.modelPath, args.threads)).join('\n')}\n`);
    return;
  }
  const requests = REQUESTS.slice(args.offset, args.offset + args.limit);
  const executor = buildExecutor(10);
  const workDir = mkdtempSync(join(tmpdir(), 'llm-speed-'));
  const results: SettingResult[] = args.settings.map((s) => ({ name: s.name, calls: [], passes: 0, requests: requests.length }));
  const timings = args.settings.map(() => [] as CompletionTiming[]);
  const providers = [];
  for (const [i, s] of args.settings.entries()) {
    const llm = await load(args, s.options, timings[i]!);
    // what the agent does at startup (verify: checks); the baseline is the provider before slots: no read-ahead
    if (s.name !== 'baseline') await llm.prepare([SYSTEM_PROMPT, CHECKS_PROMPT]);
    providers.push(llm);
  }
  process.stderr.write(`${providers[0]!.name}: ${requests.length} requests × ${args.settings.map((s) => s.name).join(', ')}\n`);
  try {
    for (const [position, request] of requests.entries()) {
      for (const [i, setting] of args.settings.entries()) {
        const r = await runScenario(
          { llm: providers[i]!, timings: timings[i]!, executor, artifactDir: join(workDir, setting.name, request.id) },
          request,
          position,
        );
        results[i]!.calls.push(...r.calls);
        if (r.firstPass) results[i]!.passes++;
        if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 1));
        const total = r.calls.reduce((n, c) => n + c.timing.totalMs, 0);
        process.stderr.write(`[${position + 1}/${requests.length}] ${request.id} ${setting.name}: ${(total / 1000).toFixed(1)} s${r.firstPass ? '' : ' (first attempt fails its checker)'}\n`);
      }
    }
  } finally {
    for (const p of providers) await p.dispose();
  }
  const conc = args.concurrency ? await concurrency(args) : undefined;
  await disposeSharedModels();
  const costs = formatBatchCosts(await batchCosts(args.modelPath, args.threads));
  process.stdout.write(`${[...formatReport(providers[0]!.name, results, conc), '', ...costs].join('\n')}\n`);
  rmSync(workDir, { recursive: true, force: true });
  process.exit(0); // llama.cpp's native handles would keep the process alive
}

main().catch((err: unknown) => {
  process.stderr.write(`llm-speed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
