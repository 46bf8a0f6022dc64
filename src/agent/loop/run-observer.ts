/**
 * Metrics read from a run turn's agent events: how long each attempt took (from its `generating`
 * event to its execution's result, or to its code's failure when nothing ran), and, when the turn
 * ends, the run's outcome and the turn's duration.
 */
import type { AgentEvent, AgentEventListener } from '../run/index.js';
import type { AttemptTrigger, Run } from '../../history/types.js';
import type { Metrics } from '../../metrics/metrics.js';

/** What a turn was: a new run, code without running it, an improve or a re-run. */
export type { TurnKind } from '../../history/types.js';
import type { TurnKind } from '../../history/types.js';

/** Watches one turn. */
export class TurnObserver {
  private readonly started = performance.now();
  /** Attempts being made: index → start time and trigger. */
  private readonly attempts = new Map<number, { at: number; trigger: AttemptTrigger }>();

  constructor(
    private readonly metrics: Metrics,
    private readonly platform: string,
    private readonly kind: TurnKind,
  ) {}

  /** The turn's listener: `inner` gets every event, and the attempts are timed. */
  listener(inner: AgentEventListener | undefined): AgentEventListener {
    return (event: AgentEvent) => {
      this.see(event);
      inner?.(event);
    };
  }

  /** The turn ended with `run` as it stands. */
  ended(run: Run): void {
    const outcome = run.status === 'failed' && run.error === 'cancelled' ? 'cancelled' : run.status === 'running' ? 'failed' : run.status;
    this.metrics.runs.inc({ platform: this.platform, kind: this.kind, outcome });
    this.metrics.runDuration.observe({ platform: this.platform, kind: this.kind }, (performance.now() - this.started) / 1000);
  }

  private see(event: AgentEvent): void {
    if (event.type === 'generating') this.attempts.set(event.attempt, { at: performance.now(), trigger: event.trigger });
    else if (event.type === 'executing' && !this.attempts.has(event.attempt)) this.attempts.set(event.attempt, { at: performance.now(), trigger: 'rerun' });
    else if (event.type === 'executed' || event.type === 'repeated' || (event.type === 'generated' && event.error !== undefined)) this.end(event.attempt);
  }

  private end(attempt: number): void {
    const start = this.attempts.get(attempt);
    if (!start) return;
    this.attempts.delete(attempt);
    this.metrics.attemptDuration.observe({ trigger: start.trigger }, (performance.now() - start.at) / 1000);
  }
}
