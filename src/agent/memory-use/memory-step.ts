/**
 * The step that gives a new run its channel's memory (`src/memory`): once, before its first LLM
 * call, after its input files were profiled (an example is chosen by its request and files). What
 * it was given is kept with the run (`Run.memory`), so every later attempt, improve and independent
 * program of the run reads the same, and the `memory_used` event says what it was.
 */
import type { Run } from '../../history/types.js';
import type { ChannelMemory } from '../../memory/channel-memory.js';
import { recallQuery } from '../../memory/channel-memory.js';
import { emit, type CallOptions } from '../run/index.js';

/**
 * Recalls the memory of the run's conversation into `run.memory` and emits `memory_used` when there
 * was any. A store that cannot be read costs the run its memory, never the run itself (the log says so).
 * @returns true when the run was given something (the caller stores it)
 */
export async function recallMemory(memory: ChannelMemory | undefined, run: Run, options: CallOptions, log: (message: string) => void): Promise<boolean> {
  if (!memory?.available || run.memory) return false;
  let recalled;
  try {
    recalled = await memory.recall(run.conversationId, recallQuery(run.requirement, run.inputProfile));
  } catch (err) {
    log(`run ${run.id} starts without its channel's memory: ${(err as Error).message}`);
    return false;
  }
  if (recalled.definitions.length === 0 && recalled.examples.length === 0) return false;
  run.memory = recalled;
  emit(options, {
    type: 'memory_used',
    runId: run.id,
    definitions: recalled.definitions.map((d) => ({ ...d })),
    examples: recalled.examples.map((x) => ({ id: x.id, runId: x.runId })),
  });
  return true;
}
