/**
 * Definitions as code (`memory.definition_helpers`, docs/memory.md): after a run was given its
 * channel's definitions and before its first program, the most similar definition that has no
 * helper yet gets one, written once by the LLM (`def revenue(df): …`), checked on the run's files in
 * the sandbox (it imports, runs and returns one value per row or a number), and shown in the
 * thread (`definition_helper`). The run's programs then find it importable (`from team import
 * revenue`: `team.py` is placed in every work dir of the run, `helpers.ts` `withTeamModule`) and
 * the glossary tells them so. A 👍 of the run keeps it with the definition (`../loop/settle.ts`), so later
 * runs get it without writing it again; the helpers memory keeps are shown as used.
 *
 * Written at first use, not at `/remember`: a helper must be written against real columns and
 * checked on real files, which a run has and a `/remember` (or `code-agent memory add`) does not;
 * and a definition no run is given costs no LLM call.
 *
 * A helper that cannot be written (the LLM failed, no function, its check failed after one fix)
 * costs the run nothing else: it reads the definition as a sentence, and the thread says why.
 */
import type { LlmProvider, ChatMessage } from '../../llm/types.js';
import type { Executor } from '../../sandbox/types.js';
import type { Run } from '../../history/types.js';
import { profileSection } from '../../data/profile.js';
import { extractCode } from '../replies/index.js';
import { emit, type TurnOptions } from '../run/index.js';
import {
  checkableFiles,
  HELPER_MAX_TOKENS,
  HELPER_PROMPT,
  helperCheckProgram,
  helperName,
  helperRequest,
  onlyDefinitions,
  readHelperCheck,
  TEAM_FILE,
  type HelperCheck,
} from '../../memory/helpers.js';

/** Fix calls after a helper's first check failed (its error goes back to the LLM). */
export const HELPER_FIXES = 1;

/** What the step needs. */
export interface HelperStepDeps {
  llm: LlmProvider;
  executor: Executor;
  /** The operator's log (an LLM or sandbox failure while writing a helper). */
  log?: (message: string) => void;
}

/**
 * Gives the run's definitions their helpers: announces the ones memory keeps, and writes, checks
 * and announces one for the most similar definition that has none (when the run has table files
 * and its workspace has no `team.py` of its own).
 * @returns true when `run.memory` changed (the caller stores the run)
 */
export async function giveHelpers(deps: HelperStepDeps, run: Run, options: TurnOptions): Promise<boolean> {
  const definitions = run.memory?.definitions ?? [];
  if (definitions.length === 0) return false;
  const ownTeamFile = (options.inputFiles ?? []).some((f) => f.name === TEAM_FILE);
  if (ownTeamFile) {
    // the team's own team.py is what their programs import: no helper is placed over it
    for (const d of definitions) delete d.helper;
    return false;
  }
  for (const d of definitions) {
    if (d.helper && !d.helper.written) emit(options, { type: 'definition_helper', runId: run.id, definition: { id: d.id, text: d.text }, helper: d.helper, written: false });
  }
  const target = definitions[0]!;
  const files = checkableFiles((run.inputProfile?.files ?? []).map((f) => f.name));
  if (target.helper || files.length === 0 || !run.inputProfile) return false;
  const outcome = await writeHelper(deps, run, target.text, files, options);
  if ('note' in outcome) {
    emit(options, { type: 'definition_helper', runId: run.id, definition: { id: target.id, text: target.text }, written: true, note: outcome.note });
    return false;
  }
  target.helper = { ...outcome, runId: run.id, written: true };
  const { written: _w, ...helper } = target.helper;
  emit(options, { type: 'definition_helper', runId: run.id, definition: { id: target.id, text: target.text }, helper, written: true });
  return true;
}

/** A helper written and checked, or why none could be. */
type Written = { name: string; code: string; checked: string } | { note: string };

async function writeHelper(deps: HelperStepDeps, run: Run, definition: string, files: string[], options: TurnOptions): Promise<Written> {
  const messages: ChatMessage[] = [
    { role: 'system', content: HELPER_PROMPT },
    { role: 'user', content: helperRequest(definition, profileSection(run.inputProfile!), files) },
  ];
  let last = '';
  for (let call = 0; call <= HELPER_FIXES; call++) {
    let reply;
    try {
      reply = await deps.llm.complete(messages, { temperature: 0, maxTokens: HELPER_MAX_TOKENS, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (err) {
      if (options.signal?.aborted) throw err;
      deps.log?.(`run ${run.id}: writing a definition's helper failed: ${(err as Error).message}`);
      return { note: 'the model could not be asked' };
    }
    const extracted = extractCode(reply.content);
    const code = 'code' in extracted ? onlyDefinitions(extracted.code) : '';
    const named = 'code' in extracted ? helperName(code) : { error: extracted.error };
    const check: HelperCheck = 'error' in named ? { ok: false, error: named.error } : await checkHelper(deps, named.name, code, files, options);
    if (check.ok && 'name' in named) return { name: named.name, code, checked: check.checked };
    last = check.ok ? '' : check.error;
    messages.push(
      { role: 'assistant', content: reply.content },
      { role: 'user', content: `It failed its check (the function called on the DataFrame of each file): ${last}. Reply with the whole corrected code.` },
    );
  }
  return { note: `its check failed: ${last}` };
}

/** Runs the helper's check in the sandbox, with `team.py` and the run's files in its work dir. */
async function checkHelper(deps: HelperStepDeps, name: string, code: string, files: string[], options: TurnOptions): Promise<HelperCheck> {
  const result = await deps.executor.execute(helperCheckProgram(name, files), {
    inputFiles: [...(options.inputFiles ?? []), { name: TEAM_FILE, content: Buffer.from(`${code}\n`, 'utf8') }],
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return readHelperCheck(result.stdout, result.stderr, result.success);
}
