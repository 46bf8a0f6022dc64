/**
 * `/metrics` on the Slack HTTP server, in a scripted scenario (fake Slack and LLM, real sandbox):
 * the text parses as the Prometheus text format (parse-prometheus-text-format, a real parser),
 * every counter of a run moves by exactly one per run (tokens by exactly what the LLM reported), no
 * label value comes from user text or ids, and each run records its usage, which
 * `code-agent usage` reports.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import parsePrometheusTextFormat, { type PromFamily } from 'parse-prometheus-text-format';
import { py, startWorld, type World } from '../slack/harness.js';
import { CLI_BIN, requireBuiltCli } from '../helpers/cli.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** One LLM reply with the usage the fake reports. */
const reply = (code: string) => ({ content: py(code), usage: { prompt_tokens: 100, completion_tokens: 20 } });

/** A scrape: its families as typed by the text, and every series with its labels. */
interface Scrape {
  families: PromFamily[];
  /**
   * The same text read with its `# TYPE` lines left out: the parser then keeps each histogram
   * series (`_bucket`, `_sum`, `_count`) with its labels, which it merges in a typed histogram.
   */
  series: PromFamily[];
}

async function scrape(w: World): Promise<Scrape> {
  const res = await fetch(`${w.appUrl}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { families: parsePrometheusTextFormat(text), series: parsePrometheusTextFormat(text.split('\n').filter((l) => !l.startsWith('# TYPE ')).join('\n')) };
}

/** The sum of the samples of `name` (a counter, a gauge, or a histogram's `_count`) whose labels include `labels`. */
function value(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  return scrape.series
    .filter((f) => f.name === name)
    .flatMap((f) => f.metrics)
    .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((sum, m) => sum + Number(m.value ?? 0), 0);
}

/** Every label value of every sample. */
function labelValues(scrape: Scrape): string[] {
  return scrape.series.flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
}

describe('/metrics', () => {
  it('parses as the Prometheus text format, moves by one per run, and carries no user text', async () => {
    world = await startWorld({
      replies: [reply('print("ok")'), reply('raise SystemExit(3)'), reply('print(sum(range(10)))')],
      maxRetries: 0,
      slack: { allowed_users: ['U_ALICE', 'U_BOB'] },
    });
    const w = world;
    const health = await fetch(`${w.appUrl}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${w.appUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(Object.keys(((await ready.json()) as { parts: object }).parts).sort()).toEqual(['llm', 'sandbox', 'store']);

    const requirements = ['print OK-MARKER-7f3a please', 'exit with code three ZEBRA-MARKER', 'sum of the first ten numbers QUOKKA-MARKER'];
    const outcomes = ['success', 'failed', 'success'];
    let before = await scrape(w);
    const type = (name: string) => before.families.find((f) => f.name === name)?.type;
    expect(type('code_agent_runs_total')).toBe('COUNTER');
    expect(type('code_agent_llm_request_duration_seconds')).toBe('HISTOGRAM');
    expect(type('code_agent_queue_waiting_jobs')).toBe('GAUGE');
    for (let i = 0; i < requirements.length; i++) {
      await w.command({ text: requirements[i]!, user_id: i === 1 ? 'U_BOB' : 'U_ALICE' });
      await w.finished(await w.rootTs('C_MAIN', i));
      const after = await scrape(w);
      const delta = (name: string, labels?: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
      expect(delta('code_agent_runs_total')).toBe(1);
      expect(delta('code_agent_runs_total', { platform: 'slack', kind: 'run', outcome: outcomes[i]! })).toBe(1);
      expect(delta('code_agent_run_duration_seconds_count', { platform: 'slack', kind: 'run' })).toBe(1);
      expect(delta('code_agent_attempt_duration_seconds_count', { trigger: 'requirement' })).toBe(1);
      expect(delta('code_agent_llm_request_duration_seconds_count', { purpose: 'code', provider: 'openai', result: 'ok' })).toBe(1);
      expect(delta('code_agent_llm_tokens_total', { purpose: 'code', type: 'prompt' })).toBe(100);
      expect(delta('code_agent_llm_tokens_total', { purpose: 'code', type: 'completion' })).toBe(20);
      expect(delta('code_agent_sandbox_execution_duration_seconds_count')).toBe(1);
      expect(delta('code_agent_sandbox_execution_duration_seconds_count', { result: outcomes[i] === 'success' ? 'success' : 'error' })).toBe(1);
      expect(delta('code_agent_admissions_refused_total')).toBe(0);
      before = after;
    }

    // a refusal at admission: counted once, by reason
    const refused = await w.command({ text: 'print 1', user_id: 'U_EVE' });
    expect(JSON.stringify(refused.body)).toContain('not on the list');
    const after = await scrape(w);
    expect(value(after, 'code_agent_admissions_refused_total', { platform: 'slack', reason: 'access' }) - value(before, 'code_agent_admissions_refused_total')).toBe(1);
    expect(value(after, 'code_agent_queue_active_jobs')).toBe(0);
    expect(value(after, 'process_cpu_seconds_total')).toBeGreaterThan(0);

    // no label value carries user text, a user, a channel or a run id
    const store = await KeyvHistoryStore.open(w.config.store.url);
    const stored = await store.listRuns('slack:T0001:C_MAIN', 10);
    await store.close();
    expect(stored).toHaveLength(3);
    const forbidden = ['MARKER', 'U_ALICE', 'U_BOB', 'U_EVE', 'C_MAIN', 'T0001', ...stored.map((r) => r.id)];
    for (const v of labelValues(after)) for (const f of forbidden) expect(v).not.toContain(f);

    // each run recorded its usage
    for (const run of stored) {
      expect(run.usage).toMatchObject({ llmCalls: 1, promptTokens: 100, completionTokens: 20, executions: 1, toolCalls: 0 });
      expect(run.usage!.llmMs).toBeGreaterThan(0);
    }

    // code-agent usage reads the same store, per user
    requireBuiltCli();
    const configFile = join(w.dir, 'config.yaml');
    writeFileSync(configFile, stringify({ store: { url: w.config.store.url, data_dir: w.config.store.data_dir }, limits: { budgets: { price_per_1k_tokens: 0.5, currency: 'EUR' } } }));
    const cli = spawnSync(process.execPath, [CLI_BIN, 'usage', '--by', 'user', '--json', '--config', configFile], { encoding: 'utf8', cwd: w.dir });
    expect(cli.status, cli.stderr).toBe(0);
    const report = JSON.parse(cli.stdout) as { by: string; lines: { key: string; runs: number; tokens: number; cost: number }[]; total: { runs: number; tokens: number; cost: number }; currency: string };
    expect(report.by).toBe('user');
    expect(report.total).toMatchObject({ runs: 3, tokens: 360, cost: 0.18 });
    expect(report.currency).toBe('EUR');
    expect(report.lines.map((l) => [l.key, l.runs, l.tokens])).toEqual([
      ['slack:T0001:U_ALICE', 2, 240],
      ['slack:T0001:U_BOB', 1, 120],
    ]);
    const table = spawnSync(process.execPath, [CLI_BIN, 'usage', '--config', configFile], { encoding: 'utf8', cwd: w.dir });
    expect(table.stdout).toMatch(/by channel/);
    expect(table.stdout).toMatch(/slack:T0001:C_MAIN\s+3\s+3\s+300\s+60\s+360/);
    const bad = spawnSync(process.execPath, [CLI_BIN, 'usage', '--since', 'yesterday', '--config', configFile], { encoding: 'utf8', cwd: w.dir });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--since "yesterday": expected a number of days like 30d');
  }, 120_000);
});
