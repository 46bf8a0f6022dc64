/**
 * The architecture's "nevers" (docs/architecture.md), checked by dependency-cruiser over the
 * TypeScript imports of src/ and adapters/ (type-only imports count: a type pulls a layer in as
 * much as a value). Run by test/architecture/nevers.test.ts, so CI fails when one is broken;
 * by hand: `npx depcruise --config .dependency-cruiser.cjs src adapters`.
 *
 * The layers, lowest first: text · config, log · history (the store and the Run record's types) ·
 * data, llm, sandbox, tools, metrics, usage, health · agent · chat (the pipeline), queue · app (the
 * wiring) · adapters (platforms: their transport, their markup and their two ports).
 */
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
    {
      name: 'text-is-lowest',
      severity: 'error',
      comment: 'src/text imports nothing of the project outside itself.',
      from: { path: '^src/text/' },
      to: { path: '^(src|adapters)/(?!text/)' },
    },
    {
      name: 'config-is-low',
      severity: 'error',
      comment: 'src/config imports only src/text.',
      from: { path: '^src/config/' },
      to: { path: '^(src|adapters)/(?!(config|text)/)' },
    },
    {
      name: 'history-is-low',
      severity: 'error',
      comment: 'src/history (the store and the Run record\'s types) imports only src/text and src/config.',
      from: { path: '^src/history/' },
      to: { path: '^(src|adapters)/(?!(history|text|config)/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|vendor)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
