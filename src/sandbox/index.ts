/** The sandbox: one {@link Executor} interface, the bubblewrap backend, and its limits. */
export * from './types.js';
export { BubblewrapExecutor, type BubblewrapExecutorOptions } from './executor.js';
export * from './limits.js';
