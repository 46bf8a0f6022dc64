/**
 * The architecture's "nevers" (docs/architecture.md), checked by dependency-cruiser over the
 * TypeScript imports of src/ and adapters/ (type-only imports count: a type pulls a layer in as
 * much as a value). Run by test/architecture/nevers.test.ts, so CI fails when one is broken;
 * by hand: `npx depcruise --config .dependency-cruiser.cjs src adapters`.
 *
 * The layers, lowest first (LAYERS below): a folder of src/ imports only itself and the folders
 * before it. Every folder of src/ is named there (test/architecture/nevers.test.ts checks it).
 *
 * The agent's rooms, lowest first (AGENT_ROOMS below): each is a folder of src/agent with one entry,
 * its index.ts. Any other module (another room, another layer, an adapter, the bench) imports a room
 * only through that entry, and a room imports only the rooms before it. Every folder of src/agent
 * is named there, and no module lies outside a room (the test checks both).
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

const AGENT_ROOMS = [
  'run', // the run's shared parts: events, call and turn options, ids, turn lease, time budget, turn workspace, kept output
  'failures', // what went wrong in an execution, in words; failures no code can fix; repeated failures
  'requirements', // what the request states: its methods, the answer's form, the files it asks for
  'reading', // reading the data: the profile step, the workspace between turns, how each program read the data
  'replies', // asking the LLM for a program: the prompt's opening, a whole reply, the code extracted
  'verification', // checks, review, agreement, the verdict, candidates, two against one, first answer, last resort
  'memory-use', // the channel's memory given to a run, the definitions' helpers
  'loop', // the Agent: turns, the run's steps, the fix loop, the conversation, team programs' runs, settling
];

/** The rule that keeps room `room` of src/agent from importing any room after it in AGENT_ROOMS. */
function roomUpwardRule(room, i) {
  const above = AGENT_ROOMS.slice(i + 1);
  return {
    name: 'agent-room-no-upward-import',
    severity: 'error',
    comment: `src/agent/${room} imports only itself and the rooms before it (${AGENT_ROOMS.slice(0, i).join(', ') || 'none'}).`,
    from: { path: `^src/agent/${room}/` },
    to: { path: above.length ? `^src/agent/(${above.join('|')})/` : '^$' },
  };
}

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
    {
      name: 'agent-room-only-through-its-entry',
      severity: 'error',
      comment: 'A room of src/agent imports another room only through its entry (index.ts).',
      from: { path: '^src/agent/([^/]+)/' },
      to: { path: '^src/agent/[^/]+/', pathNot: ['^src/agent/$1/', '^src/agent/[^/]+/index\\.ts$'] },
    },
    {
      name: 'agent-only-through-room-entries',
      severity: 'error',
      comment: 'Code outside src/agent (other layers, adapters, the bench) imports the agent only through its rooms\' entries (index.ts).',
      from: { path: '^(src|adapters|bench)/', pathNot: '^src/agent/' },
      to: { path: '^src/agent/', pathNot: '^src/agent/[^/]+/index\\.ts$' },
    },
    ...AGENT_ROOMS.map(roomUpwardRule),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|vendor)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
