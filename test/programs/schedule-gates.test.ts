/**
 * The gates of a schedule: the result gate read once into a predicate and checked on stdout with
 * no LLM call (src/schedules/result-gate.ts), and the work gate's fingerprint of a tick's
 * inputs (files, tool answers: src/schedules/work-gate.ts), with the tool records'
 * answer fingerprints made by the SQL route.
 */
import { describe, expect, it } from 'vitest';
import { answerFingerprint, checkResultGate, ConditionError, readLabelledValue, readResultGate } from '../../src/schedules/result-gate.js';
import { inputsFingerprint, unchangedInputs } from '../../src/schedules/work-gate.js';
import { handleSqlCall } from '../../src/tools/sql/handler.js';
import type { SqlSource } from '../../src/tools/sql/types.js';

describe('the result gate', () => {
  it('reads "changed", conditions with symbols and words, and shows the predicate', () => {
    expect(readResultGate('')).toEqual({ kind: 'always' });
    expect(readResultGate('it changed')).toEqual({ kind: 'changed' });
    expect(readResultGate('the answer changed')).toEqual({ kind: 'changed' });
    expect(readResultGate('refunds > 5 %')).toEqual({ kind: 'condition', label: 'refunds', op: '>', value: 5, percent: true, text: 'the number after "refunds" in the output > 5 (percent, as printed)' });
    expect(readResultGate('total < 1000')).toMatchObject({ label: 'total', op: '<', value: 1000 });
    expect(readResultGate('refund rate is above 5%')).toMatchObject({ label: 'refund rate', op: '>', value: 5, percent: true });
    expect(readResultGate('total is at most 1,000')).toMatchObject({ label: 'total', op: '<=', value: 1000 });
    expect(readResultGate('hours over budget >= 3')).toMatchObject({ label: 'hours over budget', op: '>=', value: 3 });
    expect(readResultGate('> 100')).toEqual({ kind: 'condition', op: '>', value: 100, text: 'the only number in the output > 100' });
  });

  it.each([
    ['refunds > lots', 'the value "refunds" > something, but "lots" is not a number'],
    ['whenever it feels right', 'no comparison'],
  ])('refuses "%s" with what was understood and an example', (text, understood) => {
    expect(() => readResultGate(text)).toThrow(ConditionError);
    expect(() => readResultGate(text)).toThrow(understood);
    expect(() => readResultGate(text)).toThrow('only when refunds > 5 %');
  });

  it('finds the labelled value in stdout (case, spaces and _ ignored; thousands separators; %)', () => {
    const out = 'Rows: 120\nRefund rate: 6.2 %\nTotal revenue: 1,234.50 EUR\n';
    expect(readLabelledValue(out, 'refund rate')).toBe(6.2);
    expect(readLabelledValue(out, 'REFUND_RATE')).toBe(6.2);
    expect(readLabelledValue(out, 'total revenue')).toBe(1234.5);
    expect(readLabelledValue(out, 'margin')).toBe('no line of the output holds "margin" followed by a number');
    expect(readLabelledValue('42\n', undefined)).toBe(42);
    expect(readLabelledValue('1 and 2', undefined)).toMatch(/2 numbers/);
  });

  it('checks a condition on every tick: post, hold back, or unreadable (a failed tick)', () => {
    const gate = readResultGate('refunds > 5 %');
    expect(checkResultGate(gate, 'refunds: 6.2%', 'a', undefined)).toEqual({ post: true, value: 6.2, why: '6.2 > 5' });
    expect(checkResultGate(gate, 'refunds: 4.9%', 'a', undefined)).toEqual({ post: false, why: '4.9 is not > 5' });
    expect(checkResultGate(gate, 'nothing here', 'a', undefined)).toEqual({ unreadable: expect.stringContaining('could not be checked') });
  });

  it('"changed" posts the first answer and a new one, not the same one again', () => {
    const gate = readResultGate('it changed');
    const a = answerFingerprint('total: 10\n', [{ name: 'plot.png', sha256: 'x' }]);
    expect(answerFingerprint('total: 10  \n\n', [{ name: 'plot.png', sha256: 'x' }])).toBe(a); // trailing spaces do not count
    const b = answerFingerprint('total: 10\n', [{ name: 'plot.png', sha256: 'y' }]);
    expect(b).not.toBe(a); // a file changed
    expect(checkResultGate(gate, '', a, undefined)).toMatchObject({ post: true });
    expect(checkResultGate(gate, '', a, a)).toMatchObject({ post: false });
    expect(checkResultGate(gate, '', b, a)).toMatchObject({ post: true, why: 'the answer changed' });
  });
});

describe('the work gate', () => {
  const program = { code: 'print(sql("shop", "SELECT 1"))', params: { region: 'EU' } };
  const call = (answer?: string) => ({ tool: 'sql', summary: 'sql shop: 1 query', ok: answer !== undefined, durationMs: 3, bytes: 10, ...(answer ? { answer } : {}) });

  it('holds back a tick whose files and tool answers are those of the last posted run', () => {
    const files = [{ name: 'sales.csv', hash: 'h1' }];
    const first = inputsFingerprint(program, files, [call('r1'), call('r2')]);
    // the same answers in another order are the same inputs
    expect(inputsFingerprint(program, files, [call('r2'), call('r1')]).fingerprint).toBe(first.fingerprint);
    expect(unchangedInputs(true, inputsFingerprint(program, files, [call('r1'), call('r2')]), first.fingerprint)).toBe(true);
    expect(unchangedInputs(false, first, first.fingerprint)).toBe(false); // the gate turned off
    expect(unchangedInputs(true, first, undefined)).toBe(false); // nothing posted yet
    // a file, an answer, a parameter or the code changed: posted
    expect(inputsFingerprint(program, [{ name: 'sales.csv', hash: 'h2' }], [call('r1'), call('r2')]).fingerprint).not.toBe(first.fingerprint);
    expect(inputsFingerprint(program, files, [call('r1'), call('r3')]).fingerprint).not.toBe(first.fingerprint);
    expect(inputsFingerprint({ ...program, params: { region: 'US' } }, files, [call('r1'), call('r2')]).fingerprint).not.toBe(first.fingerprint);
    expect(inputsFingerprint({ ...program, code: 'print(2)' }, files, [call('r1'), call('r2')]).fingerprint).not.toBe(first.fingerprint);
  });

  it('never holds back a program with no input at all (no file, no tool call)', () => {
    const none = inputsFingerprint(program, [], []);
    expect(none.watched).toBe(false);
    expect(unchangedInputs(true, none, none.fingerprint)).toBe(false);
  });

  it('the SQL route records the fingerprint of the rows it answered (the same rows, the same fingerprint)', async () => {
    let rows: unknown[][] = [[1, 'EU']];
    const source = { query: async () => ({ columns: [{ name: 'n', type: 'int4' }, { name: 'region', type: 'text' }], rows, truncated: false, bytes: 10 }) } as unknown as SqlSource;
    const sources = new Map([['shop', source]]);
    const ask = () => handleSqlCall(sources, () => true, { source: 'shop', query: 'SELECT 1' }, { maxRows: 100, maxBytes: 100_000, timeoutMs: 1000 } as never);
    const a = (await ask()).record.answer;
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect((await ask()).record.answer).toBe(a);
    rows = [[2, 'EU']];
    expect((await ask()).record.answer).not.toBe(a);
    const refused = await handleSqlCall(sources, () => false, { source: 'shop', query: 'SELECT 1' }, { maxRows: 100, maxBytes: 100_000, timeoutMs: 1000 } as never);
    expect(refused.record.answer).toBeUndefined();
  });
});
