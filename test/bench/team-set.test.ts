/**
 * bench/team: every case's program (the team's reading) runs in the real sandbox on the case's
 * files and its checker accepts the output; the checker refuses what the plain reading prints; the
 * set has at least 15 cases of both ways of teaching, each with a paraphrase that is not its request.
 */
import { describe, expect, it } from 'vitest';
import { TEAM_CASES } from '../../bench/team/cases.js';
import { makeExecutor, tempDir } from '../sandbox/helpers.js';

const executor = makeExecutor({ limits: { wallTimeS: 30, cpuTimeS: 30 } });

describe('the team set', () => {
  it('has at least 15 cases, unique ids, both ways of teaching, paraphrases unlike their requests', () => {
    expect(TEAM_CASES.length).toBeGreaterThanOrEqual(15);
    expect(new Set(TEAM_CASES.map((c) => c.id)).size).toBe(TEAM_CASES.length);
    expect(TEAM_CASES.filter((c) => c.teach === 'definition').length).toBeGreaterThanOrEqual(7);
    expect(TEAM_CASES.filter((c) => c.teach === 'example').length).toBeGreaterThanOrEqual(7);
    for (const c of TEAM_CASES) expect(c.paraphrase.toLowerCase(), c.id).not.toBe(c.request.toLowerCase());
  });

  it.each(TEAM_CASES.map((c) => [c.id, c] as const))('%s: the team reading passes, the plain reading is refused', async (_, c) => {
    const result = await executor.execute(c.program, { inputFiles: c.files, artifactDir: tempDir('team-ref-') });
    expect(result.success, `${c.id}: ${result.stderr}`).toBe(true);
    const right = c.check(result.stdout);
    expect(right.pass, `${c.id}: ${right.reason}\n${result.stdout}`).toBe(true);
    const naive = c.check(c.naive);
    expect(naive.pass, `${c.id}: the plain reading passed: ${c.naive}`).toBe(false);
  }, 60_000);
});
