import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // most test files wait on sandboxes, servers and child processes, not the CPU: on a 2-core
    // machine vitest's default (cores - 1) runs them one at a time
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
