/**
 * The process's Prometheus metrics, with prom-client (https://github.com/siimots/prom-client), in a
 * registry of their own (each process exports its own; queue mode's ingresses and workers each
 * have one). Names and labels follow https://prometheus.io/docs/practices/naming/: a `code_agent_`
 * prefix, base units (seconds), `_total` on counters. Every label value comes from a fixed set
 * written in the code or the config (an outcome, a platform, a tool's name): never from user text,
 * never an id. docs/operations.md lists them all.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Buckets of a run turn, in s (a local model takes minutes). */
const RUN_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 900, 1800];
/** Buckets of an attempt and of an LLM call, in s. */
const LLM_BUCKETS = [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];
/** Buckets of a sandbox execution, in s. */
const EXEC_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];

/** Jobs waiting in the queue and running in this process, read when scraped. */
export interface QueueCounts {
  waiting: number;
  active: number;
}

/** See the module comment. */
export class Metrics {
  readonly registry = new Registry();

  /** Runs' turns ended, by platform, kind (`run`, `generate`, `improve`, `rerun`, `program`: a team program's run) and outcome. */
  readonly runs = new Counter({
    name: 'code_agent_runs_total',
    help: 'Run turns ended (a new run, an improve, a re-run), by platform, kind and outcome (success, unverified, failed, cancelled, generated).',
    labelNames: ['platform', 'kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly runDuration = new Histogram({
    name: 'code_agent_run_duration_seconds',
    help: 'Wall time of a run turn, every attempt included, in seconds.',
    labelNames: ['platform', 'kind'] as const,
    buckets: RUN_BUCKETS,
    registers: [this.registry],
  });
  readonly attemptDuration = new Histogram({
    name: 'code_agent_attempt_duration_seconds',
    help: 'Wall time of an attempt (its LLM call, then its execution), in seconds, by what triggered it.',
    labelNames: ['trigger'] as const,
    buckets: LLM_BUCKETS,
    registers: [this.registry],
  });
  readonly llmDuration = new Histogram({
    name: 'code_agent_llm_request_duration_seconds',
    help: 'Wall time of an LLM call, in seconds, by purpose (code, checks, review, agreement), provider (openai, local) and result (ok, error).',
    labelNames: ['purpose', 'provider', 'result'] as const,
    buckets: LLM_BUCKETS,
    registers: [this.registry],
  });
  readonly llmTokens = new Counter({
    name: 'code_agent_llm_tokens_total',
    help: 'LLM tokens, by purpose (code, checks, review, agreement) and type (prompt, completion).',
    labelNames: ['purpose', 'type'] as const,
    registers: [this.registry],
  });
  readonly executionDuration = new Histogram({
    name: 'code_agent_sandbox_execution_duration_seconds',
    help: 'Wall time of a sandbox execution, in seconds, by result (success, error, killed).',
    labelNames: ['result'] as const,
    buckets: EXEC_BUCKETS,
    registers: [this.registry],
  });
  readonly sandboxKills = new Counter({
    name: 'code_agent_sandbox_kills_total',
    help: 'Sandbox executions stopped by a limit, by reason (wall_time, cpu_time, memory, output, processes, file_size, work_dir_files, work_dir_bytes).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly sandboxCpu = new Counter({
    name: 'code_agent_sandbox_cpu_seconds_total',
    help: 'CPU time used by sandboxed programs, in seconds (measured by their cgroup; 0 without cgroups).',
    registers: [this.registry],
  });
  readonly toolCalls = new Counter({
    name: 'code_agent_tool_calls_total',
    help: 'Calls programs made to tools through the broker, by tool (http, sql) and result (ok, refused).',
    labelNames: ['tool', 'result'] as const,
    registers: [this.registry],
  });
  readonly storeErrors = new Counter({
    name: 'code_agent_store_errors_total',
    help: 'Failed history-store operations, by operation (e.g. save_a_run, read_the_run_index, record_usage).',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });
  readonly retentionDeleted = new Counter({
    name: 'code_agent_retention_deleted_total',
    help: 'What retention deleted by age, by what (run: a run with its files; files: a run\'s workspace files and outputs, its record kept).',
    labelNames: ['what'] as const,
    registers: [this.registry],
  });
  readonly runsDeleted = new Counter({
    name: 'code_agent_runs_deleted_total',
    help: 'Runs deleted on request (a person in chat with /show <id> remove), by platform; retention by age: code_agent_retention_deleted_total.',
    labelNames: ['platform'] as const,
    registers: [this.registry],
  });
  readonly admissionsRefused = new Counter({
    name: 'code_agent_admissions_refused_total',
    help: 'Chat requests refused at admission, by platform and reason (access, request, user_busy, queue_full, budget, unavailable).',
    labelNames: ['platform', 'reason'] as const,
    registers: [this.registry],
  });
  readonly budgetRefusals = new Counter({
    name: 'code_agent_budget_refusals_total',
    help: 'Work a daily token budget refused, by budget (channel_day, user_day) and stage (admission: a chat request; llm_call: an LLM call of a run in progress whose reservation did not fit, which stopped the run).',
    labelNames: ['budget', 'stage'] as const,
    registers: [this.registry],
  });
  readonly budgetUsed = new Gauge({
    name: 'code_agent_budget_used_ratio',
    help: 'The highest share of a daily token budget used today by any channel (budget="channel_day") or user (budget="user_day") that this process charged; 1 = spent.',
    labelNames: ['budget'] as const,
    registers: [this.registry],
  });
  private queueSource: (() => Promise<QueueCounts>) | undefined;
  readonly queueWaiting = new Gauge({
    name: 'code_agent_queue_waiting_jobs',
    help: 'Chat jobs admitted and not yet started (queue mode: in the whole queue; else in this process).',
    registers: [this.registry],
    collect: async () => this.collectQueue(),
  });
  readonly queueActive = new Gauge({
    name: 'code_agent_queue_active_jobs',
    help: 'Chat jobs running (queue mode: on every worker; else in this process).',
    registers: [this.registry],
    collect: async () => this.collectQueue(),
  });
  /** The UTC day `budgetUsed` is about (it starts again at 0 each day). */
  private budgetDay = '';
  private readonly budgetHighest = new Map<string, number>();
  /** The queue's counts being read for the scrape in progress (both gauges use one read). */
  private queueRead: Promise<void> | undefined;

  /** @param version the package's version, for `code_agent_build_info` */
  constructor(version = '0.0.0') {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({ name: 'code_agent_build_info', help: 'Always 1; the version is a label.', labelNames: ['version'] as const, registers: [this.registry] }).set({ version }, 1);
    for (const budget of ['channel_day', 'user_day']) this.budgetUsed.set({ budget }, 0);
  }

  /** Sets where the queue gauges are read from when scraped (the process's chat queue). */
  watchQueue(source: () => Promise<QueueCounts>): void {
    this.queueSource = source;
  }

  /** Records a share of a budget used today (keeps the day's highest). */
  budgetShare(budget: 'channel_day' | 'user_day', share: number, day: string): void {
    if (day !== this.budgetDay) {
      this.budgetDay = day;
      this.budgetHighest.clear();
      for (const b of ['channel_day', 'user_day']) this.budgetUsed.set({ budget: b }, 0);
    }
    if (day !== this.budgetDay || share > (this.budgetHighest.get(budget) ?? 0)) {
      this.budgetHighest.set(budget, share);
      this.budgetUsed.set({ budget }, share);
    }
  }

  /** The text format a scrape gets, and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private collectQueue(): Promise<void> {
    const source = this.queueSource;
    if (!source) return Promise.resolve();
    this.queueRead ??= (async () => {
      try {
        const counts = await source();
        this.queueWaiting.set(counts.waiting);
        this.queueActive.set(counts.active);
      } catch {
        /* a queue that cannot answer keeps its last values; /readyz says why */
      } finally {
        setTimeout(() => (this.queueRead = undefined), 0).unref();
      }
    })();
    return this.queueRead;
  }
}

/** A store operation's name as a label: `save a run` → `save_a_run`. */
export function operationLabel(operation: string): string {
  return operation.toLowerCase().replace(/[^a-z]+/g, '_').replace(/^_|_$/g, '');
}
