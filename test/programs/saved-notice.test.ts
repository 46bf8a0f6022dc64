/** What saving a run as a team program says: who saved which version, and a warning when its answer was not confirmed. */
import { describe, expect, it } from 'vitest';
import type { TeamProgram } from '../../src/history/programs.js';
import { savedNotice } from '../../src/programs/text.js';

const program: TeamProgram = {
  name: 'first-primes',
  conversationId: 'cli:local',
  versions: [{ version: 1, code: 'N = 10\nprint(N)', request: 'the first N primes', parameters: [{ name: 'N', type: 'int', default: 10 }], runId: 'r1', approvedBy: 'U1', approvedByName: 'Alice', approvedAt: '2026-12-03T10:00:00Z', inputs: { files: [], sources: [], hosts: [] } }],
};

describe('the saved notice', () => {
  it('says who saved which version and how to run it, with its parameters', () => {
    const notice = savedNotice(program, { status: 'success' });
    expect(notice.title).toMatch(/^💾 Saved as team program `first-primes` v1 by Alice\. Anyone/);
    expect(notice.title).not.toContain('⚠️');
    expect(notice.lines).toEqual(['N=10']);
  });

  it('warns when the run saved ended unconfirmed, with why: every run of it is marked as the team\'s', () => {
    const notice = savedNotice(program, { status: 'unverified', error: 'an independent program printed «[2, 3, 5, 7, 11]» where this one printed «[2, 3, 5, 7]»' });
    expect(notice.title).toContain('⚠️ Its answer was not confirmed (an independent program printed «[2, 3, 5, 7, 11]»');
    expect(notice.title).toContain('every run of it is marked as the team\'s');
  });
});
