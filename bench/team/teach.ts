/**
 * The scripted teammate: teaches a channel every convention of the team set once, the way a person
 * would: a definition with `/remember` (ChannelMemory.remember), or an approved run of the first
 * request as an example (ChannelMemory.addApprovedExample, as 👍 or a settled choice does), whose
 * input profile is made by the real profiler in the sandbox.
 */
import { profileInputs } from '../../src/data/profile.js';
import type { Run } from '../../src/history/types.js';
import type { ChannelMemory } from '../../src/memory/channel-memory.js';
import type { Executor } from '../../src/sandbox/types.js';
import type { TeamCase } from './cases.js';

/** The id of the approved run a case's example comes from. */
export const approvedRunId = (c: TeamCase) => `r-approved-${c.id}`;

/** Teaches `conversationId` every case's convention; returns the memory entry id per case id. */
export async function teach(memory: ChannelMemory, executor: Executor, conversationId: string, cases: TeamCase[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const c of cases) {
    if (c.teach === 'definition') {
      ids.set(c.id, (await memory.remember(conversationId, c.definition, 'teammate')).id);
      continue;
    }
    const now = new Date().toISOString();
    const run: Run = {
      id: approvedRunId(c),
      conversationId,
      requirement: c.request,
      status: 'success',
      attempts: [],
      createdAt: now,
      updatedAt: now,
      inputProfile: await profileInputs(executor, c.files),
    };
    ids.set(c.id, (await memory.addApprovedExample(run, 'teammate', c.program)).id);
  }
  return ids;
}
