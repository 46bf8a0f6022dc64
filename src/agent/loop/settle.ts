/**
 * What people say of a finished run, without an LLM call (DESIGN "A run's outcome", "Words":
 * settle): a person picks the right one of an unconfirmed run's candidates ({@link settleRun}) or
 * says none is ("neither": a reply is asked for, which improves the run), and anyone in the
 * channel may 👍 or 👎 any finished run ({@link approveRun}). A choice ends the run `success`,
 * "confirmed by <who>", with that candidate's output and files as its answer (a new attempt that
 * copies them: `settledFrom`); a choice or a 👍 adds the run to its channel's memory as an approved
 * example. Each takes the run's turn lease: never at the same time as another turn of the run.
 */
import type { HistoryStore, Run } from '../../history/types.js';
import type { Candidate, Person, RunApproval } from '../../history/candidates.js';
import type { ChannelMemory } from '../../memory/channel-memory.js';
import { InputError } from '../../config/errors.js';
import { newAttempt, takeTurn } from '../run/index.js';
import { inlineHelpers, usesHelper } from '../../memory/helpers.js';

/** What settling and approving use. */
export interface SettleDeps {
  store: HistoryStore;
  /** Where approved examples go; absent: none is added. */
  memory?: ChannelMemory;
  /** How long to wait for a turn of the run that is going, in ms. */
  turnWaitMs: number;
  /** Told when the example could not be added (the choice still counts). */
  log?: (message: string) => void;
}

/** What a choice or an approval did. */
export interface SettleOutcome {
  run: Run;
  /** The chosen candidate (absent for `neither` and approvals). */
  chosen?: Candidate;
  /** Whether the run is an approved example of its channel's memory (its id; `already`: it was before), or why not. */
  example: { added: true; id: string; already?: true } | { added: false; why: string };
  /**
   * The definitions' helpers this approval kept with their definitions (the approved program
   * imported them: `memory.definition_helpers`), each with its definition's new entry id; absent when none.
   */
  helpers?: { name: string; definitionId: string }[];
}

/** Who did it, in words: their display name, else their id. */
export function personName(person: Person): string {
  return person.name?.trim() || person.id;
}

/**
 * Settles an unconfirmed run: `choice` is a candidate's `n`, or `neither`.
 * @throws {InputError} the run is not in the history, has no candidates to pick from, was settled
 *   already, or has no candidate `choice` (each says so); `TurnBusyError` when a turn of the run is going too long
 * @throws {HistoryError} when the store fails
 */
export async function settleRun(deps: SettleDeps, conversationId: string, runId: string, choice: number | 'neither', by: Person): Promise<SettleOutcome> {
  return withRun(deps, conversationId, runId, async (run) => {
    if (run.settlement && run.settlement.choice !== 'neither') {
      throw new InputError(`this run was settled already by ${personName(run.settlement.by)} (candidate ${run.settlement.choice})`);
    }
    if (!run.candidates?.length || run.status !== 'unverified') throw new InputError('this run has no candidate answers to choose from');
    const at = new Date().toISOString();
    if (choice === 'neither') {
      run.settlement = { by, choice, at };
      await deps.store.saveRun(run);
      return { run, example: { added: false, why: 'no candidate was chosen' } };
    }
    const chosen = run.candidates.find((c) => c.n === choice);
    if (!chosen) throw new InputError(`this run has no candidate ${choice} (it has ${run.candidates.map((c) => c.n).join(', ')})`);
    const last = run.attempts.at(-1);
    run.attempts.push({
      ...newAttempt(run, 'rerun', chosen.code, undefined, last?.workspace),
      ...(chosen.from === 'attempt' ? { keptFrom: chosen.attempt } : {}),
      settledFrom: chosen.n,
      result: { success: true, stdout: chosen.output, stderr: '', exitCode: 0, signal: null, timedOut: false, limitHit: null, durationMs: 0, artifacts: chosen.artifacts },
    });
    run.status = 'success';
    delete run.error;
    run.settlement = { by, choice, at };
    run.updatedAt = at;
    await deps.store.saveRun(run);
    const helpers = await keepHelpers(deps, run, by, chosen.code);
    return { run, chosen, example: await addExample(deps, run, by, inlineHelpers(chosen.code, run.memory)), ...(helpers.length ? { helpers } : {}) };
  });
}

/**
 * Records a person's 👍 (`up`: the run's answer is right; it becomes an approved example) or 👎
 * (`down`: something is wrong; the caller asks them what, and their reply improves the run). One
 * verdict per person: a new one replaces theirs.
 * @throws {InputError} the run is not in the history, or is not finished (still running, or has no answer)
 * @throws {HistoryError} when the store fails
 */
export async function approveRun(deps: SettleDeps, conversationId: string, runId: string, verdict: RunApproval['verdict'], by: Person): Promise<SettleOutcome> {
  return withRun(deps, conversationId, runId, async (run) => {
    if (run.status !== 'success' && run.status !== 'unverified') throw new InputError('only a finished run with an answer (✅ or ⚠️) can be approved');
    const answer = [...run.attempts].reverse().find((a) => a.result?.success);
    if (!answer) throw new InputError('this run has no answer to approve');
    const at = new Date().toISOString();
    run.approvals = [...(run.approvals ?? []).filter((a) => a.by.id !== by.id), { by, verdict, attempt: answer.index, at }];
    run.updatedAt = at;
    await deps.store.saveRun(run);
    // an example outlives the run's work dir: the helpers its program imports are written into it
    const example = verdict === 'up' ? await addExample(deps, run, by, inlineHelpers(answer.code, run.memory)) : { added: false as const, why: 'a 👎 is not an example' };
    const helpers = verdict === 'up' ? await keepHelpers(deps, run, by, answer.code) : [];
    return { run, example, ...(helpers.length ? { helpers } : {}) };
  });
}

/** Runs `body` on the stored run while holding its turn lease. */
async function withRun<T>(deps: SettleDeps, conversationId: string, runId: string, body: (run: Run) => Promise<T>): Promise<T> {
  const held = await takeTurn(deps.store, runId, { waitMs: deps.turnWaitMs, log: deps.log });
  try {
    const run = await deps.store.getRun(conversationId, runId);
    if (!run) throw new InputError(`run ${runId} is not in this channel's history`);
    return await body(run);
  } finally {
    await held.release();
  }
}

/**
 * Keeps with their definitions the helpers the run wrote that the approved program imports
 * (`ChannelMemory.keepHelper`); a failure is logged, never thrown (the approval still counts).
 */
async function keepHelpers(deps: SettleDeps, run: Run, by: Person, code: string): Promise<{ name: string; definitionId: string }[]> {
  const kept: { name: string; definitionId: string }[] = [];
  if (!deps.memory?.available) return kept;
  for (const d of run.memory?.definitions ?? []) {
    if (!d.helper?.written || !usesHelper(code, d.helper.name)) continue;
    try {
      const entry = await deps.memory.keepHelper(run.conversationId, d.id, d.helper, by.id);
      if (entry) kept.push({ name: d.helper.name, definitionId: entry.id });
    } catch (err) {
      deps.log?.(`the helper ${d.helper.name} of run ${run.id} could not be kept with its definition: ${(err as Error).message}`);
    }
  }
  return kept;
}

/** Adds the run to its channel's memory as an approved example; a failure is logged and said, never thrown. */
async function addExample(deps: SettleDeps, run: Run, by: Person, code: string): Promise<SettleOutcome['example']> {
  if (!deps.memory?.available) return { added: false, why: 'this store keeps no channel memory' };
  try {
    const before = await deps.memory.exampleOf(run);
    if (before) return { added: true, id: before.id, already: true };
    const entry = await deps.memory.addApprovedExample(run, by.id, code);
    return { added: true, id: entry.id };
  } catch (err) {
    deps.log?.(`run ${run.id} could not be added to the channel's memory: ${(err as Error).message}`);
    return { added: false, why: (err as Error).message };
  }
}
