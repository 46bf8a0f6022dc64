/** The terminal's lines for the workspace events, the turn queue and continued attempt numbers. */
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../adapters/cli/render.js';

const AT = '2026-01-01T00:00:00.000Z';

describe('workspace events in the terminal', () => {
  it('lists the workspace with sizes and origins, says what replaced what, what was not kept, and a queued turn', () => {
    expect(
      progressLine({
        type: 'workspace',
        runId: 'r',
        files: [
          { name: 'inventory.csv', bytes: 20, origin: { kind: 'input', turn: 2, at: AT } },
          { name: 'clean.csv', bytes: 1234, origin: { kind: 'written', attempt: 1, turn: 1, at: AT } },
        ],
      }),
    ).toBe('[Agent] 📁 Workspace: inventory.csv (20 B, given), clean.csv (1.2 KB, written by attempt 1)');
    expect(
      progressLine({
        type: 'workspace_replaced',
        runId: 'r',
        file: { name: 'inventory.csv', bytes: 2_621_440, origin: { kind: 'input', turn: 3, at: AT } },
        previous: { name: 'inventory.csv', bytes: 20, origin: { kind: 'input', turn: 2, at: AT } },
      }),
    ).toBe('[Agent] 📁 inventory.csv replaced the earlier file of that name (20 B → 2.5 MB)');
    expect(progressLine({ type: 'workspace_refused', runId: 'r', attempt: 2, names: ['big.bin'], reason: 'the limit is 1 (workspace.max_files)' })).toBe(
      '[Agent] ⚠️ Not kept in the workspace (big.bin): the limit is 1 (workspace.max_files)',
    );
    expect(progressLine({ type: 'queued', runId: 'r', waitMs: 930_000 })).toBe(
      '[Agent] ⏳ Another request on this run is going; this one waits for it (at most 930 s)…',
    );
  });

  it('numbers an improve\'s attempts after the run\'s earlier ones, and leaves a first turn\'s lines as they were', () => {
    expect(progressLine({ type: 'generating', runId: 'r', attempt: 1, trigger: 'requirement', lastAttempt: 4 })).toBe('[Agent] Generating code…');
    expect(progressLine({ type: 'improving', runId: 'r', retry: 1, maxRetries: 3, attempt: 2, lastAttempt: 4, reason: 'x' })).toBe(
      '[Agent] --- Improvement attempt 1/3 ---',
    );
    expect(progressLine({ type: 'generating', runId: 'r', attempt: 2, trigger: 'feedback', lastAttempt: 5 })).toBe('[Agent] Improving code (attempt 2 of the run; up to 5 with auto-fixes)…');
    expect(progressLine({ type: 'improving', runId: 'r', retry: 1, maxRetries: 3, attempt: 3, lastAttempt: 5, reason: 'x' })).toBe(
      '[Agent] --- Improvement attempt 1/3 (attempt 3/5 of the run) ---',
    );
  });
});
