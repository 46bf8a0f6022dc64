import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // sandboxes a worker could not tear down when it ended are removed once all have ended
    globalSetup: ['test/helpers/global-sweep.ts'],
    // most test files wait on sandboxes, servers and child processes, not the CPU: on a 2-core
    // machine vitest's default (cores - 1) runs them one at a time
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
