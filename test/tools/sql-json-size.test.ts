/** The JSON size of a row, counted without writing it, against JSON.stringify on every kind of value. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonRowBytes } from '../../src/tools/sql/json-size.js';

const exact = (row: unknown[]) => Buffer.byteLength(JSON.stringify(row));

describe('jsonRowBytes', () => {
  it('matches JSON.stringify on chosen values', () => {
    for (const row of [
      [], [null], [1, -2.5, 1e21, 0.1, 'a', true, false], ['quote " back \\ nl \n tab \t nul \u0000'],
      ['ünïcode ✓ 🎉'], ['lone \ud800 surrogate'], [{ a: [1, 'x'] }, [1, 2, null]], ['9007199254740993', 'NaN'],
    ]) {
      expect(jsonRowBytes(row)).toBe(exact(row));
    }
  });

  it('matches JSON.stringify on any row', () => {
    const value = fc.oneof(fc.string({ unit: 'binary' }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue());
    fc.assert(fc.property(fc.array(value, { maxLength: 8 }), (row) => jsonRowBytes(row) === exact(row)), { numRuns: 2000 });
  });
});
