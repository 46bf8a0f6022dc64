/**
 * The fix loop of a run: after its latest attempt was made, a sequence of named steps, again while
 * another attempt can change the outcome:
 *
 * 1. {@link FixLoop.executeOrRepeat}: a program that repeats an earlier one is not executed again
 *    (marked `repeatOf`, the `repeated` event); else the run's checks are derived when it has none,
 *    the attempt is executed, broken checks are repaired, and the call's first answer is shown
 *    (the `answer` event) when its verdict is not settled at once.
 * 2. {@link FixLoop.judge}: review (a defect makes the verdict `ran`), then agreement with
 *    independent programs when the checks cannot pin the answer (`../verification`).
 * 3. {@link FixLoop.decide}, the one place that decides whether the run stops: confirmed; two
 *    against one (another attempt told their answer, or their answer as the run's); a final
 *    disagreement; a failure no code can fix or a repeat (`stopReason`); the time budget; the
 *    retries spent; a spent token budget. Anything else is the next attempt, and how it is made.
 * 4. {@link FixLoop.end} finishes the run as decided, or {@link FixLoop.improve} makes the next
 *    attempt (the `improving` event) and the loop goes on from 1.
 *
 * Everything that is not a decision (executing, storing, events) is done by the run's steps
 * (`steps.ts`); a turn's deadline and errors end the run in `turn.ts`.
 */
import type { Attempt, AttemptTrigger, Run } from '../../history/types.js';
import type { Candidate } from '../../history/candidates.js';
import { emit, ADOPT_TWO_AGAINST_ONE, TWO_AGAINST_ONE_ANSWER, REPEAT_TEMPERATURE, budgetStop, type StepsOptions, type TurnOptions } from '../run/index.js';
import { availableLibraries, sameFailuresBefore } from '../failures/index.js';
import { cleanName } from '../../text/file-names.js';
import {
  judgeAttempt,
  sameCodeAs,
  stopReason,
  adoptionFeedback,
  settleByAgreement,
  answerPending,
  adoptLeader,
  adoptedNote,
  leadingCandidate,
  type Verdict,
} from '../verification/index.js';
import { forPurpose } from '../../log/scope.js';
import type { RunSteps } from './steps.js';

/** What the judge step found of an attempt: its verdict, whether it is final, and two independent programs' answer against it. */
export interface Judged {
  verdict: Verdict;
  /** No further attempt can settle it (the model that wrote both cannot say which is right). */
  final: boolean;
  /** What two independent programs that agree with each other and not with the attempt printed. */
  adopt?: string;
}

/** How the run ends, as decided ({@link FixLoop.decide}). */
export type Ending =
  | { how: 'confirmed' }
  /** Two against one: the leading candidate's answer is the run's answer, unconfirmed. */
  | { how: 'their-answer'; reason: string; leader: Candidate }
  /**
   * Unconfirmed: the best attempt that ran is the answer (`steps.ts` `finishUnconfirmed`).
   * `reason`: why the last attempt was not confirmed; `stop`: why the run stops before its
   * retries are spent, if it does; `timeUp`: the time budget stopped it.
   */
  | { how: 'unconfirmed'; reason: string; stop: string | undefined; timeUp: boolean };

/** The next attempt, as decided: what triggers it, what it is told, how it samples. */
export interface NextAttempt {
  trigger: AttemptTrigger;
  feedback?: string;
  /** The sampling temperature ({@link REPEAT_TEMPERATURE} after a repeat); default: the reply's own. */
  temperature?: number;
  /** Why the last attempt was not confirmed (the `improving` event's reason). */
  reason: string;
  /** Two independent programs' answer the attempt is told to print (kept as `run.agreement.adopt`). */
  adopt?: string;
}

/** The decision after an attempt was judged: end the run, or make the next attempt. */
export type Move = { end: Ending } | { next: NextAttempt };

/** Where the call's loop is: its retry (1-based), the retries it may make, and what it showed. */
interface Call {
  retry: number;
  maxRetries: number;
  /** The call's first answer was shown (unconfirmed until its verdict). */
  answerShown: boolean;
}

/** The fix loop of one call (see the module doc). */
export class FixLoop {
  constructor(
    private readonly steps: RunSteps,
    private readonly options: StepsOptions,
  ) {}

  /** Runs the loop on the run's latest attempt until {@link decide} ends the run. */
  async run(run: Run, options: TurnOptions): Promise<void> {
    const call: Call = { retry: 1, maxRetries: options.maxRetries ?? this.options.maxRetries, answerShown: false };
    for (; ; call.retry++) {
      const attempt = run.attempts.at(-1)!;
      const repeatOf = await this.executeOrRepeat(run, attempt, call, options);
      const judged = await this.judge(run, attempt, call, options);
      const move = await this.decide(run, attempt, judged, repeatOf, call, options);
      if ('end' in move) return this.end(run, move.end, options);
      await this.improve(run, move.next, call, options);
    }
  }

  /**
   * Step 1: marks an attempt whose program repeats an earlier one (returns that one's index);
   * else executes it with the run's checks (derived first when the run has none, repaired when
   * broken) and shows the call's first answer when its verdict is not settled at once.
   */
  async executeOrRepeat(run: Run, attempt: Attempt, call: Call, options: TurnOptions): Promise<number | undefined> {
    const repeatOf = attempt.code ? sameCodeAs(run, attempt) : undefined;
    if (repeatOf !== undefined) {
      attempt.repeatOf = repeatOf;
      await this.steps.save(run);
      emit(options, { type: 'repeated', runId: run.id, attempt: attempt.index, repeatOf });
      return repeatOf;
    }
    if (run.checks === undefined && attempt.code) await this.steps.deriveChecks(run, options);
    await this.steps.executeLatest(run, options);
    await this.steps.repairChecks(run, attempt, options);
    if (!call.answerShown && answerPending(run, attempt, judgeAttempt(attempt, run), this.options.verify)) {
      call.answerShown = true;
      emit(options, { type: 'answer', runId: run.id, attempt: attempt.index });
    }
    return undefined;
  }

  /**
   * Step 2: the attempt's verdict after review and, when its checks cannot pin its answer,
   * agreement with independent programs (not started when the time budget has no room for one).
   */
  async judge(run: Run, attempt: Attempt, call: Call, options: TurnOptions): Promise<Judged> {
    const reviewed = await this.steps.review(run, attempt, judgeAttempt(attempt, run), options);
    const noTime = budgetStop(options.budget, call.retry, 'a cross-check');
    const system = await this.steps.systemPrompt(run, options.signal);
    const requirements = (code: string, stdout: string) => this.steps.unmetRequirements(run, code, stdout, options.signal);
    return forPurpose('agreement', () => settleByAgreement({ ...this.options, system, noTime, workspace: options.workspace?.manifest, requirements }, run, attempt, reviewed, options));
  }

  /**
   * Step 3, the one place that decides whether the run stops (the order is the precedence):
   * confirmed; two against one, adopted by one more attempt (when configured and there is room)
   * or as the run's answer; a final verdict; a failure no code can fix or a repeat, the time
   * budget, the retries spent, a spent token budget (`limits.budgets`). Otherwise the next
   * attempt: from the review's defect, or from the error (at {@link REPEAT_TEMPERATURE} after a
   * repeated program or failure). Changes nothing.
   */
  async decide(run: Run, attempt: Attempt, judged: Judged, repeatOf: number | undefined, call: Call, options: TurnOptions): Promise<Move> {
    const { verdict, final, adopt } = judged;
    if (verdict.kind === 'confirmed') return { end: { how: 'confirmed' } };
    const retriesLeft = call.retry <= call.maxRetries;
    if (adopt !== undefined && (this.options.adoptTwoAgainstOne ?? ADOPT_TWO_AGAINST_ONE) && retriesLeft && budgetStop(options.budget, call.retry, 'another attempt') === undefined) {
      return { next: { trigger: 'review', feedback: adoptionFeedback(adopt), reason: verdict.reason, adopt } };
    }
    const leader = adopt !== undefined && (this.options.twoAgainstOneAnswer ?? TWO_AGAINST_ONE_ANSWER) ? leadingCandidate(run) : undefined;
    if (leader) return { end: { how: 'their-answer', reason: verdict.reason, leader } };
    if (final) return { end: { how: 'unconfirmed', reason: verdict.reason, stop: verdict.reason, timeUp: false } };
    const inputNames = (options.inputFiles ?? []).map((f) => cleanName(f.name)).filter((n): n is string => n !== null);
    const noFix = stopReason(run, attempt, verdict, inputNames, availableLibraries(await this.options.environment()));
    const timeUp = noFix === undefined && retriesLeft ? budgetStop(options.budget, call.retry, 'another attempt') : undefined;
    const stop = noFix ?? timeUp;
    // a spent budget (limits.budgets) stops the run once its current attempt is done
    const spent = stop === undefined ? (options.budgetStop ?? (retriesLeft ? this.options.usage?.stopReason() : undefined)) : undefined;
    if (stop !== undefined || !retriesLeft || spent !== undefined) return { end: { how: 'unconfirmed', reason: verdict.reason, stop: stop ?? spent, timeUp: timeUp !== undefined } };
    const fromReview = verdict.kind === 'ran' && verdict.defect !== undefined;
    // a program or a failure seen before: the next attempt leaves the greedy path
    const again = repeatOf !== undefined || sameFailuresBefore(run, attempt).length > 0;
    return { next: { trigger: fromReview ? 'review' : 'error', feedback: fromReview ? verdict.defect : undefined, temperature: again ? REPEAT_TEMPERATURE : undefined, reason: verdict.reason } };
  }

  /** Step 4a: finishes the run as {@link decide} ended it. */
  async end(run: Run, ending: Ending, options: TurnOptions): Promise<void> {
    switch (ending.how) {
      case 'confirmed':
        await this.steps.finish(run, 'success', undefined, options);
        return;
      case 'their-answer':
        adoptLeader(run, ending.leader);
        await this.steps.finish(run, 'unverified', `${ending.reason}; ${adoptedNote(ending.leader, run)}`, options);
        return;
      case 'unconfirmed':
        await this.steps.finishUnconfirmed(run, ending.reason, ending.stop, options, { timeUp: ending.timeUp });
        return;
    }
  }

  /** Step 4b: makes the next attempt as {@link decide} said (the `improving` event first). */
  async improve(run: Run, next: NextAttempt, call: Call, options: TurnOptions): Promise<void> {
    // two against one, adopted: the attempt told their answer is confirmed when it prints it (its candidates stay until then)
    if (next.adopt !== undefined) run.agreement!.adopt = { attempt: run.attempts.length + 1, output: next.adopt };
    const index = run.attempts.length + 1;
    emit(options, { type: 'improving', runId: run.id, retry: call.retry, maxRetries: call.maxRetries, attempt: index, lastAttempt: Math.max(index, options.lastAttempt ?? index), reason: next.reason });
    await this.steps.makeAttempt(run, next.trigger, next.feedback, options, { temperature: next.temperature });
  }
}
