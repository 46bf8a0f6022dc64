/**
 * An {@link Executor} that measures each execution: its duration, the limit that stopped it, its
 * CPU time and its tool calls go to the metrics and to the usage recorder. Everything else is the
 * wrapped executor's.
 */
import type { ExecuteOptions, ExecutionResult, Executor } from '../sandbox/types.js';
import type { UsageRecorder } from './recorder.js';
import type { Metrics } from '../metrics/metrics.js';

/** See the module comment. */
export class MeteredExecutor implements Executor {
  constructor(
    readonly inner: Executor,
    private readonly metrics: Metrics | undefined,
    private readonly recorder: UsageRecorder | undefined,
  ) {
    if (inner.close) this.close = () => inner.close!();
    if (inner.environment) this.environment = () => inner.environment!();
    if (inner.cachedEnvironment) this.cachedEnvironment = () => inner.cachedEnvironment!();
  }

  close?(): Promise<void>;
  environment?(): ReturnType<NonNullable<Executor['environment']>>;
  cachedEnvironment?(): ReturnType<NonNullable<Executor['cachedEnvironment']>>;

  check(): Promise<void> {
    return this.inner.check();
  }

  async execute(code: string, options?: ExecuteOptions): Promise<ExecutionResult> {
    const result = await this.inner.execute(code, options);
    const calls = result.toolCalls ?? [];
    if (this.metrics) {
      const killed = result.limitHit !== null && result.limitHit !== 'artifacts';
      this.metrics.executionDuration.observe({ result: killed ? 'killed' : result.success ? 'success' : 'error' }, result.durationMs / 1000);
      if (killed) this.metrics.sandboxKills.inc({ reason: result.limitHit! });
      if (result.cpuS) this.metrics.sandboxCpu.inc(result.cpuS);
      for (const call of calls) this.metrics.toolCalls.inc({ tool: call.tool, result: call.ok ? 'ok' : 'refused' });
    }
    await this.recorder?.execution(result.cpuS ?? 0, calls.length);
    return result;
  }
}
