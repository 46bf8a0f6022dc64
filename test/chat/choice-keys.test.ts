/**
 * A run's choices as reaction keys (src/chat/choice-keys.ts), for a platform whose affordance is a
 * reaction: each key means what the same choice's button means on Slack and Discord, keys match
 * with or without U+FE0F, and a key a message did not offer (or a forged offer) picks nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Run } from '../../src/history/types.js';
import type { Candidate } from '../../src/history/candidates.js';
import { choicesOf } from '../../src/chat/settle-view.js';
import { choiceKeys, choiceKeysHint, choiceOfKey, isAppKey, isRerunKey, keyOfChoice, offeredChoices, reactionOffer } from '../../src/chat/choice-keys.js';

const candidate = (n: number): Candidate => ({ n, from: n === 1 ? 'attempt' : 'independent', attempt: 1, programs: [], code: '', output: String(n), artifacts: [], reading: '', backers: 1 });
const run = (status: Run['status'], candidates: number): Run =>
  ({ id: 'r-1', status, attempts: [], candidates: Array.from({ length: candidates }, (_, i) => candidate(i + 1)) }) as unknown as Run;

describe('choice keys', () => {
  it('an unconfirmed run with candidates: a keycap each, ❌ for neither (the app adds these), 👍/👎 (the client has these)', () => {
    const keys = choiceKeys(choicesOf(run('unverified', 3)));
    expect(keys.map((k) => [k.key, k.id, k.seeded])).toEqual([
      ['1️⃣', 'settle:1', true],
      ['2️⃣', 'settle:2', true],
      ['3️⃣', 'settle:3', true],
      ['❌', 'settle:neither', true],
      ['👍', 'approve:up', false],
      ['👎', 'approve:down', false],
    ]);
    // every choice the buttons offer has its key, with the same id
    expect(keys.map((k) => k.id)).toEqual(choicesOf(run('unverified', 3)).map((c) => c.id));
    expect(choiceKeysHint(keys)).toBe('React 1️⃣, 2️⃣ or 3️⃣ to pick the right answer (no new LLM call), ❌ if none is. React 👍 to approve the answer, 👎 if something is wrong.');
  });

  it('a confirmed run offers 👍/👎 only; a failed run nothing', () => {
    expect(choiceKeysHint(choiceKeys(choicesOf(run('success', 0))))).toBe('React 👍 to approve the answer, 👎 if something is wrong.');
    expect(choiceKeys(choicesOf(run('failed', 0)))).toEqual([]);
    expect(choiceKeysHint([])).toBe('');
  });

  it('a run that ran a team program found for its request offers ✍️ for "Write a new program", the button\'s choice', () => {
    const ran = { id: 'r-2', status: 'success', candidates: [], program: { name: 'p', version: 1, approvedBy: 'U1', approvedAt: '', params: {}, attempt: 1, matched: true }, attempts: [{ index: 1, trigger: 'rerun', code: 'print(1)', result: { success: true }, usage: {}, createdAt: '' }] } as unknown as Run;
    const keys = choiceKeys(choicesOf(ran));
    expect(keys.find((k) => k.id === 'program:new')?.key).toBe('✍️');
    expect(choiceKeysHint(keys)).toContain('React ✍️ to have a new program written for the request instead of the team program.');
    expect(isAppKey('✍')).toBe(true);
    // once improved, the run's answer is no longer the program's: no ✍️
    const improved = { ...ran, attempts: [...ran.attempts, { index: 2, trigger: 'feedback', code: 'print(2)', result: { success: true } }] } as unknown as Run;
    expect(choiceKeys(choicesOf(improved)).map((k) => k.id)).not.toContain('program:new');
  });

  it('a candidate past the tenth has no key (the others keep theirs)', () => {
    expect(keyOfChoice('settle:10')).toBe('🔟');
    expect(keyOfChoice('settle:11')).toBeUndefined();
    expect(choiceKeys(choicesOf(run('unverified', 11))).map((k) => k.id)).not.toContain('settle:11');
  });

  it('a reaction picks the choice its message offered, with or without U+FE0F; anything else picks nothing', () => {
    const offered = offeredChoices(choiceKeys(choicesOf(run('unverified', 2))));
    expect(choiceOfKey(offered, '1️⃣')).toBe('settle:1');
    expect(choiceOfKey(offered, '1\u20e3')).toBe('settle:1'); // a keycap sent without U+FE0F
    expect(choiceOfKey(offered, '👍\ufe0f')).toBe('approve:up');
    expect(choiceOfKey(offered, '👎🏽')).toBe('approve:down'); // a skin tone changes nothing
    expect(choiceOfKey(offered, '3️⃣')).toBeUndefined(); // not offered by this message
    expect(choiceOfKey(offeredChoices(choiceKeys(choicesOf(run('success', 0)))), '1️⃣')).toBeUndefined();
    // the offer is read from an event's content: anything not a key → choice id map picks nothing
    for (const forged of [undefined, null, 'settle:1', ['settle:1'], { '1️⃣': 1 }, { '1️⃣': { id: 'settle:1' } }]) expect(choiceOfKey(forged, '1️⃣')).toBeUndefined();
  });

  it('only the app\'s keys are for it (🔁 re-runs); other reactions are not', () => {
    for (const key of ['🔁', '1️⃣', '🔟', '❌', '👍', '👎\ufe0f', '👍🏽']) expect(isAppKey(key)).toBe(true);
    for (const key of ['😄', '🎉', '1', '', '✅']) expect(isAppKey(key)).toBe(false);
    expect(isRerunKey('🔁\ufe0f')).toBe(true);
    expect(isRerunKey('👍')).toBe(false);
  });

  it("a view's actions as reactions: the choices' keys and 🔁 to add, the offer to read back, and one hint naming them", () => {
    const actions = [...choicesOf(run('unverified', 2)), { id: 'rerun', label: 'Re-run' }, { id: 'program:save', label: '💾 Save as team program' }];
    const offer = reactionOffer(actions, '!program save <name>');
    expect(offer.seeded).toEqual(['1️⃣', '2️⃣', '❌', '🔁']);
    expect(offer.offered).toEqual(offeredChoices(choiceKeys(actions)));
    expect(offer.rerun).toBe(true);
    expect(offer.hint).toBe(
      `${choiceKeysHint(choiceKeys(actions))} React 🔁 to re-run it. To keep it as a team program (run again by name, no LLM call): \`!program save <name>\` in this thread.`,
    );
    expect(reactionOffer([], '!program save <name>')).toEqual({ offered: {}, rerun: false, seeded: [], hint: '' });
  });
});
