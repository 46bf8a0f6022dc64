/**
 * The architecture's "nevers" (docs/architecture.md), checked by dependency-cruiser over the
 * TypeScript imports of src/ and adapters/ (type-only imports count: a type pulls a layer in as
 * much as a value). Run by test/architecture/nevers.test.ts, so CI fails when one is broken;
 * by hand: `npx depcruise --config .dependency-cruiser.cjs src adapters`.
 *
 * The layers, lowest first (LAYERS below): a folder of src/ imports only itself and the folders
 * before it. Every folder of src/ is named there (test/architecture/nevers.test.ts checks it).
 */
const LAYERS = [
  'text', // words and bytes: cutting, escaping, reading values out of printed text
  'config', // the config file's schema and its defaults
  'history', // the store and the Run record's types
  'log', // the logger and the account's async context (scope.ts)
  'tools', // what a program may reach: HTTP allowlist, SQL sources
  'llm', // the LLM providers
  'metrics', // the Prometheus registry
  'sandbox', // the executor: bubblewrap, limits, files
  'usage', // the usage ledger, budgets and the metered LLM and executor
  'data', // reading the data: the input profile, table previews, feedback on data errors
  'health', // /healthz, /readyz, /metrics
  'memory', // the channel's memory: definitions and approved examples
  'programs', // team programs: parameters, fit, matching
  'agent', // the orchestrator: generate → check → execute → verify → improve
  'chat', // the chat pipeline: ingress, admission, jobs, the thread renderer
  'schedules', // team programs on a schedule: when, gates, ticks posted to chat
  'queue', // BullMQ on Redis: the chat queue's workers and the schedulers
  'app', // the wiring
];

/** The rule that keeps `folder` from importing any folder after it in LAYERS. */
function upwardRule(folder, i) {
  const above = LAYERS.slice(i + 1);
  return {
    name: 'no-upward-import',
    severity: 'error',
    comment: `src/${folder} imports only itself and the layers below it (${LAYERS.slice(0, i).join(', ') || 'none'}).`,
    from: { path: `^src/${folder}/` },
    to: { path: above.length ? `^src/(${above.join('|')})/` : '^$' },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycle, at any length.',
      from: { path: '^(src|adapters)/' },
      to: { circular: true },
    },
    {
      name: 'platforms-only-through-the-pipeline',
      severity: 'error',
      comment:
        'A chat platform reaches the agent, the queue and the sandbox only through the pipeline (src/chat) and the wiring (src/app). ' +
        'The terminal (adapters/cli) is no chat platform: it runs the agent and checks the sandbox (`doctor`) in its own process, and never uses the queue.',
      from: { path: '^adapters/(?!cli/)' },
      to: { path: '^src/(agent|queue|sandbox)/' },
    },
    {
      name: 'terminal-never-the-queue',
      severity: 'error',
      comment: 'The terminal runs in one process: it never uses the queue.',
      from: { path: '^adapters/cli/' },
      to: { path: '^src/queue/' },
    },
    {
      name: 'core-knows-no-platform',
      severity: 'error',
      comment: 'Nothing in src/ imports a platform adapter.',
      from: { path: '^src/' },
      to: { path: '^adapters/' },
    },
    {
      name: 'chat-never-the-sandbox',
      severity: 'error',
      comment: 'The chat pipeline never imports the sandbox (the Run record\'s execution types live in src/history/execution.ts).',
      from: { path: '^src/chat/' },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'sandbox-knows-no-llm',
      severity: 'error',
      comment: 'The sandbox never imports the LLM layer.',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/llm/' },
    },
    {
      name: 'store-knows-no-chat',
      severity: 'error',
      comment: 'The history store knows no chat, no queue and no platform.',
      from: { path: '^src/history/' },
      to: { path: '^(src/(chat|queue)|adapters)/' },
    },
    ...LAYERS.map(upwardRule),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|vendor)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
