/**
 * bench/realistic: every checker accepts the output of its request's reference program and rejects
 * the output of the subtly wrong one; both run in the real sandbox (bubblewrap + /usr/bin/python3)
 * with the request's attached files.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REQUESTS } from '../../bench/realistic/requests.js';
import type { RealisticRequest } from '../../bench/realistic/types.js';
import { makeExecutor, tempDir } from '../sandbox/helpers.js';

const executor = makeExecutor({ limits: { wallTimeS: 30, cpuTimeS: 30 } });
const reference = (id: string, variant: '' | '.wrong') =>
  readFileSync(new URL(`../../bench/realistic/reference/${id}${variant}.py`, import.meta.url), 'utf8');

async function verdictOf(request: RealisticRequest, code: string) {
  const result = await executor.execute(code, { inputFiles: request.inputFiles, artifactDir: tempDir('realistic-ref-') });
  expect(result.success, `${request.id}: ${result.stderr}`).toBe(true);
  return request.check({ stdout: result.stdout, artifacts: result.artifacts }, { executor });
}

describe('the realistic request set', () => {
  it('has at least 30 requests of the five kinds, with unique ids', () => {
    expect(REQUESTS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(REQUESTS.map((r) => r.id)).size).toBe(REQUESTS.length);
    const kinds = new Map<string, number>();
    for (const r of REQUESTS) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
    expect([...kinds.keys()].sort()).toEqual(['arithmetic', 'data', 'date', 'plot', 'text']);
    for (const n of kinds.values()) expect(n).toBeGreaterThanOrEqual(5);
  });

  describe.each(REQUESTS.map((r) => [r.id, r] as const))('%s', (_id, request) => {
    it('passes the reference program and fails the wrong one', { timeout: 120_000 }, async () => {
      const good = await verdictOf(request, reference(request.id, ''));
      expect(good, good.reason).toMatchObject({ pass: true });
      const wrong = await verdictOf(request, reference(request.id, '.wrong'));
      expect(wrong.pass, `the wrong program passed: ${wrong.reason}`).toBe(false);
    });
  });

  it('fails a run that printed nothing and returned no file', async () => {
    for (const request of REQUESTS) {
      expect((await request.check({ stdout: '', artifacts: [] }, { executor })).pass, request.id).toBe(false);
    }
  });
});
