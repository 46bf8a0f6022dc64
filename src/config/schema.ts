/**
 * The shape of `config.yaml` (a contract documented in the README). Every key is validated; an error names
 * the key by its path, e.g. `sandbox.timeout_s: expected a number`.
 */
import { z } from 'zod';
import { PIN_PATTERN, WORKSPACE_MAX_BYTES, WORKSPACE_MAX_CONVERSATION_BYTES, WORKSPACE_MAX_FILES } from './defaults.js';
import { toolsSchema } from './tools-schema.js';
import { memorySchema } from './memory-schema.js';
import { schedulesSchema } from './schedules-schema.js';
import { int, num, optionalNumber, optionalString, optionalUrl } from './schema-parts.js';
import { discordSchema, matrixSchema, slackSchema } from './chat-schema.js';

export { chatSchema, discordSchema, matrixSchema, slackCommandsSchema, slackSchema, type ChatKeys } from './chat-schema.js';

/**
 * The `ops` section (docs/operations.md): `/healthz`, `/readyz` and `/metrics` on a listener of
 * their own for processes without an HTTP server (Discord, the worker); off without `port`. The
 * Slack HTTP app serves them on its own port too.
 */
export const opsSchema = z
  .object({
    /** Port of the ops listener (0: any free port, printed at start); unset: no listener. */
    port: optionalNumber(0, true).refine((p) => p === undefined || p <= 65535, { message: 'expected a port number (0–65535)' }),
    /** Address it listens on (`0.0.0.0` for probes and scrapes from other hosts). */
    host: z.string().min(1).default('127.0.0.1'),
    /** Serve `/metrics` (and count them). */
    metrics: z.boolean().default(true),
    /** How long `/readyz` waits for each part (store, queue, LLM, sandbox), in s. */
    ready_timeout_s: num(3),
  })
  .strict();

/** `limits.budgets` (docs/operations.md): daily LLM token budgets, per channel and per user, kept in the store. */
export const budgetsSchema = z
  .object({
    /** LLM tokens (prompt + completion) one channel may spend per UTC day. */
    tokens_per_channel_per_day: optionalNumber(1, true),
    /** LLM tokens one user may spend per UTC day, over every channel. */
    tokens_per_user_per_day: optionalNumber(1, true),
    /** Price of 1000 tokens of an API model, to show usage in money. */
    price_per_1k_tokens: optionalNumber(0, false),
    /** The price's currency (ISO 4217 code). */
    currency: z.string().regex(/^[A-Z]{3}$/, { message: 'expected a three-letter currency code like USD' }).default('USD'),
  })
  .strict();

/** Most improvement attempts a run may make (`agent.max_retries`, `--max-retries`). */
export const MAX_AGENT_RETRIES = 20;

export const llmSchema = z
  .object({
    provider: z.enum(['auto', 'openai', 'local']).default('auto'),
    model: optionalString,
    /** Default `${OPENAI_API_KEY}` (README). */
    api_key: optionalString,
    /** Default `${OPENAI_BASE_URL}` (README). */
    base_url: optionalUrl,
    /** Path of a GGUF file for the local provider. */
    model_path: optionalString,
    /** Where downloaded local models are kept. */
    models_dir: z.string().default('data/models'),
    /** Local model: context window in tokens. */
    context_size: int(4096, 256),
    /** Local model: CPU threads (0 = all cores but one, at least 1). */
    threads: int(0, 0),
    /** Local model: chats kept evaluated (context sequences), so a later call that shares a chat's start skips reading it. */
    cached_chats: int(3),
    /** Local model: requests generated at the same time, batched (the others wait). */
    parallel: int(1),
    /** Local model: token prediction (speculative decoding): `off`, `input` (look-up in the prompt), `draft` (a smaller model). */
    prediction: z.enum(['off', 'input', 'draft']).default('off'),
    /** Local model: the draft model's GGUF file, for `prediction: draft` (same tokenizer, smaller). */
    draft_model_path: optionalString,
    /** Local model: how long finding a model to download may take before giving up, in seconds. */
    download_timeout_s: num(30),
    temperature: z.number().min(0).max(2).default(0),
    /**
     * A fixed seed for sampled calls (temperature above 0: a retry after a repeat, an independent
     * program): the first call's, one more for each call after it (src/llm/seed.ts). The same
     * request then samples the same replies, for reproducible runs and measurements. Unset: a new
     * seed each call.
     */
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
    max_tokens: int(2048),
    timeout_s: num(120),
    max_retries: int(3, 0),
  })
  .strict();

export const sandboxSchema = z
  .object({
    python: z.string().default('/usr/bin/python3'),
    timeout_s: num(10),
    cpu_time_s: num(10),
    memory_mb: num(512),
    max_processes: int(64),
    max_file_mb: num(16),
    max_open_files: int(256, 16),
    max_output_kb: num(1024),
    max_artifacts: int(10, 0),
    max_artifact_mb: num(8),
    /** Opt-in to running WITHOUT isolation when bubblewrap is unavailable. Logs a warning on every run. */
    allow_unisolated: z.boolean().default(false),
    /** Warm sandboxes kept ready with numpy, pandas and matplotlib imported; 0 turns the pool off (docs/sandbox.md). */
    warm_pool: int(1, 0),
    /** Age after which an unused warm sandbox is thrown away and replaced, in s. */
    warm_pool_max_age_s: num(300),
    /** `off`: no cgroup per run (limits per process only, as where cgroups are not writable). */
    cgroups: z.enum(['auto', 'off']).default('auto'),
    /**
     * The operator's own Python packages, `name==version` pins (each may end with
     * ` --hash=sha256:<hex>`), installed by `npm run setup` without their dependencies (pin those too).
     */
    python_packages: z
      .array(
        z.string().trim().regex(PIN_PATTERN, {
          message: 'expected a pin like "name==1.2.3" (optionally followed by " --hash=sha256:<64 hex digits>")',
        }),
      )
      .default([]),
  })
  .strict();

/**
 * The `queue` section (docs/deploy.md): with `url` set, chat processes only receive and enqueue,
 * and `code-agent worker` processes run the jobs. Without it, one process does everything.
 */
export const queueSchema = z
  .object({
    /** `redis://…` or `rediss://…`; empty = embedded mode. */
    url: optionalString.refine((v) => v === undefined || /^rediss?:\/\/\S+/.test(v), {
      message: 'expected a redis:// or rediss:// URL',
    }),
    /** The BullMQ queue's name (queues on one Redis are apart by name). */
    name: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only').default('code-agent'),
    /** Jobs one worker process runs at once. */
    concurrency: int(1),
    /** How long a worker's lock on a job lasts without renewal, in s (renewed every half of it). */
    lock_s: num(30),
    /** How often workers look for jobs whose worker stopped (lock expired), in s. */
    stalled_interval_s: num(30),
    /** Longest a job may hold its user's and channel's slots, in s (a job whose process died frees them after this). */
    job_timeout_s: num(1800),
  })
  .strict();

export const configSchema = z
  .object({
    llm: llmSchema.default(llmSchema.parse({})),
    agent: z
      .object({
        max_retries: int(3, 0, MAX_AGENT_RETRIES),
        max_requirement_chars: int(8000),
        /** How results are verified beyond the exit code (README "Answers you can trust"). */
        verify: z.enum(['off', 'checks', 'review', 'both']).default('checks'),
        /** The longest one run may take, every attempt included, in s (0: no limit). */
        run_timeout_s: z.preprocess(
          (v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v),
          z.number().min(0),
        ).default(300),
      })
      .strict()
      .default({ max_retries: 3, max_requirement_chars: 8000, verify: 'checks', run_timeout_s: 300 }),
    sandbox: sandboxSchema.default(sandboxSchema.parse({})),
    /** Bounds of a run's workspace (its files and the files its programs wrote, kept with the history). */
    workspace: z
      .object({
        /** Most files in one run's workspace. */
        max_files: int(WORKSPACE_MAX_FILES, 1, 10_000),
        /** Most bytes in one run's workspace. */
        max_bytes: int(WORKSPACE_MAX_BYTES, 1, 2 ** 40),
        /** Most bytes in the workspaces of all the runs of one conversation (channel, terminal); past it the oldest runs' files are deleted. */
        max_conversation_bytes: int(WORKSPACE_MAX_CONVERSATION_BYTES, 1, 2 ** 40),
      })
      .strict()
      .refine((w) => w.max_conversation_bytes >= w.max_bytes, {
        message: 'max_conversation_bytes must be at least max_bytes (a conversation holds at least one run)',
        path: ['max_conversation_bytes'],
      })
      .default({ max_files: WORKSPACE_MAX_FILES, max_bytes: WORKSPACE_MAX_BYTES, max_conversation_bytes: WORKSPACE_MAX_CONVERSATION_BYTES }),
    /** Channel memory (docs/memory.md): bounds per conversation, and how much of a prompt it may take. */
    memory: memorySchema.default(memorySchema.parse({})),
    /** Schedules of team programs (docs/schedules.md): the channels' time zone and how many each may have. */
    schedules: schedulesSchema.default(schedulesSchema.parse({})),
    store: z
      .object({
        url: z.string().default('sqlite://data/history.sqlite'),
        /** Where artifacts are kept on the host. */
        data_dir: z.string().default('data'),
      })
      .strict()
      .default({ url: 'sqlite://data/history.sqlite', data_dir: 'data' }),
    /**
     * How long runs and files are kept (docs/store.md). Unset (the default): kept until the
     * workspace bounds evict files or someone deletes a run; memory and team programs are kept until forgotten.
     */
    retention: z
      .object({
        /** Runs (records, workspaces, outputs) unchanged for more days are deleted. */
        runs_days: z.number().int().min(1).max(36_500).optional(),
        /** Workspace files and outputs of runs unchanged for more days are deleted; the run records stay. */
        files_days: z.number().int().min(1).max(36_500).optional(),
        /** Minutes between two sweeps (one per cluster sharing a store). */
        sweep_every_min: int(60, 1, 10_080),
      })
      .strict()
      .refine((r) => r.runs_days === undefined || r.files_days === undefined || r.files_days <= r.runs_days, {
        message: 'files_days must be at most runs_days (a deleted run has no files)',
        path: ['files_days'],
      })
      .default({ sweep_every_min: 60 }),
    log: z
      .object({
        level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
        /** `json` lines, `pretty` lines for people, or `auto`: pretty on a terminal, else json (`--log-format`). */
        format: z.enum(['auto', 'json', 'pretty']).default('auto'),
      })
      .strict()
      .default({ level: 'info', format: 'auto' }),
    ops: opsSchema.default(opsSchema.parse({})),
    limits: z
      .object({ budgets: budgetsSchema.default(budgetsSchema.parse({})) })
      .strict()
      .default({ budgets: budgetsSchema.parse({}) }),
    queue: queueSchema.default(queueSchema.parse({})),
    /** What programs may reach through the host-side broker (src/config/tools-schema.ts). */
    tools: toolsSchema.default(toolsSchema.parse({})),
    slack: slackSchema.optional(),
    discord: discordSchema.optional(),
    matrix: matrixSchema.optional(),
  })
  .strict();

/** The validated configuration. */
export type Config = z.infer<typeof configSchema>;
