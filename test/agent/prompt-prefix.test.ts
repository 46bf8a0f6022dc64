/**
 * Every program call of a run opens the same way, so a local model reuses what it evaluated for the
 * call before: an independent program's chat starts as the attempts' does (system prompt, request,
 * workspace listing, profile), and only then says how it differs.
 */
import { describe, expect, it } from 'vitest';
import { firstMessage, sharedOpening, systemPrompt } from '../../src/agent/replies/index.js';
import { buildMessages } from '../../src/agent/loop/index.js';
import { newAttempt } from '../../src/agent/run/index.js';
import { independentMessages } from '../../src/agent/verification/agreement-step.js';
import { FROM_FIELDS_INSTRUCTION, INDEPENDENT_INSTRUCTION } from '../../src/agent/verification/agreement.js';
import type { Run } from '../../src/history/types.js';
import type { WorkspaceManifest } from '../../src/history/workspace.js';

const at = new Date().toISOString();
const workspace: WorkspaceManifest = { files: [{ name: 'sales.csv', hash: 'a'.repeat(64), bytes: 40, origin: { kind: 'input', turn: 1, at } }] };
const run: Run = {
  id: 'r1',
  conversationId: 'c',
  requirement: 'units sold per region',
  status: 'running',
  attempts: [],
  createdAt: at,
  updatedAt: at,
  inputProfile: { files: [{ name: 'sales.csv', summary: 'CSV: 2 data rows', text: "CSV, columns: 'region' (str), 'units' (int)\nread it with: df = pandas.read_csv('sales.csv')" }] },
};

/** Characters two texts share from their start. */
const shared = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
};

describe('the opening every program call of a run shares', () => {
  it("an independent program's chat starts as the first attempt's, to the end of the profile", () => {
    const system = systemPrompt();
    const attempt = buildMessages(run, newAttempt(run, 'requirement', ''), { system, workspace });
    const independent = independentMessages(run, system, workspace);
    expect(independent[0]).toEqual(attempt[0]);
    const opening = sharedOpening(run, { workspace });
    expect(opening).toContain('sales.csv (40 bytes; given by the user)');
    expect(opening).toContain("read it with: df = pandas.read_csv('sales.csv')");
    expect(attempt[1]!.content.startsWith(`${opening}\n\n`)).toBe(true);
    expect(independent[1]!.content).toBe(`${opening}\n\n${FROM_FIELDS_INSTRUCTION}\n\n${INDEPENDENT_INSTRUCTION}`);
    expect(shared(attempt[1]!.content, independent[1]!.content)).toBeGreaterThanOrEqual(opening.length + 2);
    expect(firstMessage(run, { workspace }).startsWith(opening)).toBe(true);
  });

  it('changes asked for since come after the opening, so it stays shared', () => {
    const improved: Run = { ...run, attempts: [{ ...newAttempt(run, 'feedback', 'print(1)', 'only the North'), index: 1 }] };
    const content = independentMessages(improved, undefined, workspace)[1]!.content;
    expect(content.startsWith(sharedOpening(improved, { workspace }))).toBe(true);
    expect(content).toContain('Changes asked for since:\n- only the North');
    expect(content.indexOf('only the North')).toBeGreaterThan(content.indexOf("read it with: df = pandas.read_csv('sales.csv')"));
  });
});
