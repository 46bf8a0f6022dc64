/**
 * Does channel memory teach the agent a team's words? The team set (`bench/team/cases.ts`): a
 * scripted teammate teaches one channel every convention once (a definition, or an approved run
 * as an example); then each case's paraphrase is asked in that channel (with memory) and in a
 * channel of its own (without), and its checker scores the answer the user is shown last. Prints
 * accuracy with and without memory, the difference in points, the median time to the final answer,
 * and whether each run was given its own convention. With `--first`: each first request in a channel
 * of its own, and the share that ends right after at most one click (`team/first.ts`).
 *
 *   npm run build && node dist/bench/team.js --verify checks --retries 1 --json bench/results/team.json
 *   node dist/bench/team.js --first --verify checks --retries 0 --json bench/results/team-first.json
 *   node dist/bench/team.js --programs --json bench/results/team-programs.json   # paraphrases with team programs saved
 *   node dist/bench/team.js --definitions --verify off --retries 1 --json bench/results/team-definitions-sentence.json   # the 9 taught by a definition alone
 *   node dist/bench/team.js --definitions --helpers --verify off --retries 1 --json bench/results/team-definitions-helpers.json   # the same with definition helpers
 *   node dist/bench/team.js --definitions --paired --verify off --retries 1 --json bench/results/team-definitions.json   # each case both ways in turn: -sentence.json, -helpers.json
 *   node dist/bench/team.js --retrieval          # retrieval alone (no model): ranks and false picks
 *   node dist/bench/team.js --report bench/results/team.json
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../src/agent/loop/index.js';
import type { AgentEvent, MemoryUsedEvent } from '../src/agent/run/index.js';
import { KeyvHistoryStore } from '../src/history/keyv-store.js';
import { COMMON_OPTIONS, commonArgs, parseOptions, wholeNumber } from './shared/args.js';
import { UsageError } from './shared/errors.js';
import { buildExecutor, buildProvider, disposeProvider } from './shared/provider.js';
import { writeSummary } from './shared/summary-file.js';
import { TEAM_CASES, type TeamCase } from './team/cases.js';
import { askFirst, formatFirstReport, shownStdout, type FirstResult } from './team/first.js';
import { formatTeamReport, type TeamResult, type TeamSummary } from './team/report.js';
import { retrievalReport } from './team/retrieval.js';
import { askDefinition, formatDefinitionsReport, teachDefinitions, TokenCounter, type DefinitionsSummary } from './team/definitions.js';
import { approvedRunId, teach } from './team/teach.js';
import { askNearMiss, askWithPrograms, formatProgramsReport, NEAR_MISSES, savePrograms, type ProgramsSummary } from './team/programs.js';
import type { LlmProvider } from '../src/llm/types.js';
import type { Executor } from '../src/sandbox/types.js';

const USAGE = `node dist/bench/team.js [--first | --programs | --definitions [--helpers | --paired]] [--verify checks|review|both|off] [--retries 1] [--run-timeout-s 0] [--ids a,b] [--limit N] [--offset N]
  [--model-path F.gguf | --base-url URL --model NAME] [--threads N] [--context-size N] [--max-tokens N] [--json out.json]
node dist/bench/team.js --retrieval
node dist/bench/team.js --report out.json`;

const OPTIONS = { ...COMMON_OPTIONS, ids: { type: 'string' }, first: { type: 'boolean', default: false }, programs: { type: 'boolean', default: false }, definitions: { type: 'boolean', default: false }, helpers: { type: 'boolean', default: false }, paired: { type: 'boolean', default: false }, retrieval: { type: 'boolean', default: false }, report: { type: 'string' }, 'run-timeout-s': { type: 'string', default: '0' } } as const;

async function main(): Promise<void> {
  const parsed = parseOptions(process.argv.slice(2), OPTIONS, USAGE);
  if (parsed.values.report) {
    const summary = JSON.parse(readFileSync(parsed.values.report, 'utf8')) as TeamSummary | FirstSummary | ProgramsSummary | DefinitionsSummary;
    process.stdout.write(`${'definitions' in summary ? formatDefinitionsReport(summary) : 'programs' in summary ? formatProgramsReport(summary) : 'first' in summary ? formatFirstReport(summary.provider, summary.verify, summary.retries, summary.first) : formatTeamReport(summary)}\n`);
    return;
  }
  const args = commonArgs(parsed, USAGE, TEAM_CASES.length);
  const dir = mkdtempSync(join(tmpdir(), 'team-bench-'));
  const executor = buildExecutor(args.timeoutS);
  const store = await KeyvHistoryStore.open(`sqlite://${join(dir, 'history.sqlite')}`);
  try {
    if (parsed.values.retrieval) {
      process.stdout.write(`${await retrievalReport(store, executor)}\n`);
      return;
    }
    const ids = parsed.values.ids?.split(',').map((s) => s.trim());
    const unknown = ids?.find((id) => !TEAM_CASES.some((c) => c.id === id));
    if (unknown) throw new UsageError(`--ids: no case has the id ${unknown}`);
    // --definitions asks the 9 cases taught by a definition unless --ids names others
    const chosen = TEAM_CASES.filter((c) => (ids ? ids.includes(c.id) : !parsed.values.definitions || c.teach === 'definition'));
    const cases = chosen.slice(args.offset, args.offset + args.limit);
    const llm = await buildProvider(args, []);
    const counter = new TokenCounter();
    // no run deadline by default: on a shared machine a slow model must not fail a run the other side finished
    const runTimeoutMs = wholeNumber(parsed.values['run-timeout-s'], 'run-timeout-s') * 1000;
    const agent = new Agent({ llm: parsed.values.definitions ? counter.wrap(llm) : llm, executor, store, artifactRoot: join(dir, 'artifacts'), maxRetries: args.retries, verify: args.verify, runTimeoutMs, memory: { definitionHelpers: parsed.values.helpers } });
    if (parsed.values.definitions) {
      const summary = (helpers: boolean): DefinitionsSummary => ({ definitions: true, provider: llm.name, verify: args.verify, retries: args.retries, helpers, results: [] });
      // --paired: each case asked with the sentence, then with helpers, in the same channel (two agents on one store)
      const sides: DefinitionSide[] = parsed.values.paired
        ? [
            { agent, summary: summary(false), json: args.json?.replace(/(\.json)?$/, '-sentence.json') },
            { agent: new Agent({ llm: counter.wrap(llm), executor, store, artifactRoot: join(dir, 'artifacts'), maxRetries: args.retries, verify: args.verify, runTimeoutMs, memory: { definitionHelpers: true } }), summary: summary(true), json: args.json?.replace(/(\.json)?$/, '-helpers.json') },
          ]
        : [{ agent, summary: summary(parsed.values.helpers), json: args.json }];
      await byDefinitions(sides, cases, counter).finally(() => disposeProvider(llm));
      return;
    }
    if (parsed.values.first) {
      await firstRequests(agent, cases, { provider: llm.name, verify: args.verify, retries: args.retries, first: [] }, args.json).finally(() => disposeProvider(llm));
      return;
    }
    if (parsed.values.programs) {
      await withPrograms(agent, llm, store, executor, cases, args.json).finally(() => disposeProvider(llm));
      return;
    }
    const channel = 'bench:team';
    // the teammate teaches every convention of the set, so each run meets the others' too
    const entryOf = await teach(agent.memory!, executor, channel, TEAM_CASES);
    const results: TeamResult[] = [];
    const summary: TeamSummary = { provider: llm.name, verify: args.verify, retries: args.retries, results };
    process.stderr.write(`team set: ${cases.length} cases with ${llm.name}, verify ${args.verify}, retries ${args.retries}\n`);
    try {
      for (const [i, c] of cases.entries()) {
        const result: TeamResult = { id: c.id, teach: c.teach, without: await ask(agent, `bench:alone:${c.id}`, c), with: await ask(agent, channel, c) };
        const used = result.with.used;
        result.with.gotOwn = c.teach === 'definition' ? (used?.definitions.some((d) => d.id === entryOf.get(c.id)) ?? false) : (used?.examples.some((x) => x.runId === approvedRunId(c)) ?? false);
        results.push(result);
        process.stderr.write(`[${i + 1}/${cases.length}] ${c.id} (${c.teach}): without ${mark(result.without)} | with ${mark(result.with)}${result.with.gotOwn ? '' : ' (not given its convention)'}\n`);
        if (args.json) writeSummary(args.json, summary);
      }
    } finally {
      await disposeProvider(llm);
    }
    process.stdout.write(`${formatTeamReport(summary)}\n`);
  } finally {
    await store.close();
    await executor.close?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `--programs`: every case's first request saved as a team program in one channel (its conventions
 * taught to the channel's memory too, for the requests no program matches), then each paraphrase
 * asked there, then the near misses.
 */
async function withPrograms(agent: Agent, llm: LlmProvider, store: KeyvHistoryStore, executor: Executor, cases: TeamCase[], json: string | undefined): Promise<void> {
  const channel = 'bench:team-programs';
  await teach(agent.memory!, executor, channel, TEAM_CASES);
  await savePrograms(agent, store, executor, channel, TEAM_CASES);
  const summary: ProgramsSummary = { provider: llm.name, programs: [], nearMisses: [] };
  process.stderr.write(`team set with programs: ${cases.length} paraphrases with ${llm.name}\n`);
  for (const [i, c] of cases.entries()) {
    const r = await askWithPrograms(agent, llm, channel, c);
    summary.programs.push(r);
    process.stderr.write(`[${i + 1}/${cases.length}] ${c.id}: ${r.pass ? 'pass' : 'FAIL'} (${r.match}${r.matched ? `: ${r.matched}` : ''}) ${r.seconds.toFixed(1)} s\n`);
    if (json) writeSummary(json, summary);
  }
  for (const miss of NEAR_MISSES) {
    const files = TEAM_CASES.find((c) => c.id === miss.caseId)!.files.map((f) => f.name);
    const r = await askNearMiss(agent, llm, channel, miss.request, files);
    summary.nearMisses.push(r);
    process.stderr.write(`near miss "${miss.request}": ${r.matched ? `matched ${r.matched}` : 'no program'}\n`);
    if (json) writeSummary(json, summary);
  }
  process.stdout.write(`${formatProgramsReport(summary)}\n`);
}

/**
 * `--definitions`: every case's convention stated in one channel by `/remember` alone (no approved
 * example), then each chosen case's paraphrase asked there (`team/definitions.ts`).
 */
async function byDefinitions(sides: DefinitionSide[], cases: TeamCase[], counter: TokenCounter): Promise<void> {
  const channel = 'bench:team-definitions';
  const entryOf = await teachDefinitions(sides[0]!.agent.memory!, channel, TEAM_CASES);
  process.stderr.write(`team set by definitions alone: ${cases.length} paraphrases with ${sides[0]!.summary.provider}, helpers ${sides.map((s) => (s.summary.helpers ? 'on' : 'off')).join(' then ')}\n`);
  for (const [i, c] of cases.entries()) {
    for (const side of sides) {
      const r = await askDefinition(side.agent, channel, c, entryOf.get(c.id), counter);
      side.summary.results.push(r);
      const h = r.helper ? ` helper ${r.helper.kept ? `${r.helper.name}${r.helper.used ? ' used' : ' not used'}` : `not kept (${r.helper.note ?? ''})`}` : '';
      process.stderr.write(`[${i + 1}/${cases.length}] ${c.id} (helpers ${side.summary.helpers ? 'on' : 'off'}): ${r.pass ? 'pass' : 'FAIL'} ${r.status} ${r.seconds.toFixed(0)} s${r.gotOwn ? '' : ' (not given its definition)'}${h}${r.pass ? '' : ` (${r.reason})`}\n`);
      if (side.json) writeSummary(side.json, side.summary);
    }
  }
  for (const side of sides) process.stdout.write(`${formatDefinitionsReport(side.summary)}\n\n`);
}

/** One way of asking in `--definitions`: its agent, its summary and where it is written. */
interface DefinitionSide {
  agent: Agent;
  summary: DefinitionsSummary;
  json: string | undefined;
}

/** The `--first --json` file. */
interface FirstSummary {
  provider: string;
  verify: string;
  retries: number;
  first: FirstResult[];
}

/** Asks every case's first request in a channel of its own; prints the report. */
async function firstRequests(agent: Agent, cases: TeamCase[], summary: FirstSummary, json: string | undefined): Promise<void> {
  process.stderr.write(`team set, first requests: ${cases.length} with ${summary.provider}, verify ${summary.verify}, retries ${summary.retries}\n`);
  for (const [i, c] of cases.entries()) {
    const r = await askFirst(agent, c);
    summary.first.push(r);
    process.stderr.write(`[${i + 1}/${cases.length}] ${c.id}: ${r.outcome} (${r.status}, ${r.candidates} candidates${r.clicked ? `, clicked ${r.clicked}` : ''}) ${r.seconds.toFixed(0)} s\n`);
    if (json) writeSummary(json, summary);
  }
  process.stdout.write(`${formatFirstReport(summary.provider, summary.verify, summary.retries, summary.first)}\n`);
}

const mark = (r: TeamResult['with']) => `${r.pass ? 'pass' : 'FAIL'} ${r.status} ${r.seconds.toFixed(0)} s${r.pass ? '' : ` (${r.reason})`}`;

/** Asks a case's paraphrase in a channel; scores the answer shown last. */
async function ask(agent: Agent, conversationId: string, c: TeamCase): Promise<TeamResult['with']> {
  let used: MemoryUsedEvent | undefined;
  const started = performance.now();
  const run = await agent.run(conversationId, c.paraphrase, {
    inputFiles: c.files,
    requestedBy: 'asker',
    onEvent: (e: AgentEvent) => {
      if (e.type === 'memory_used') used = e;
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const last = [...run.attempts].reverse().find((a) => a.result)?.result;
  const stdout = shownStdout(run);
  const stderr = last?.stderr.trim() ?? '';
  const verdict = c.check(stdout);
  return {
    pass: verdict.pass,
    reason: verdict.reason,
    status: run.status,
    seconds,
    attempts: run.attempts.length,
    ...(stderr ? { stderrTail: stderr.slice(-400) } : {}),
    ...(used ? { used: { definitions: used.definitions, examples: used.examples } } : {}),
  };
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof UsageError ? err.message : (err as Error).stack ?? String(err)}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
