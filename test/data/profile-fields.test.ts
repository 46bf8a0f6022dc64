/**
 * The profile's fields (what the agent reads to speak of the names in an error): each column or
 * record key with its type, a first value and the note that says how to read it; by the real
 * profiler in the real sandbox.
 */
import { describe, expect, it } from 'vitest';
import { makeExecutor } from '../sandbox/helpers.js';
import { profileInputs } from '../../src/data/profile.js';
import type { InputFile } from '../../src/sandbox/types.js';

const executor = makeExecutor({ limits: { wallTimeS: 20, cpuTimeS: 20 } });
const file = (name: string, content: string): InputFile => ({ name, content: Buffer.from(content) });

describe('profile fields', () => {
  it('a CSV with a header: names, types, first values and the parse note; a headerless one by position; JSON records by key', async () => {
    const signups = 'user,signed_up,amount\nann,2024-03-01T09:00:00+01:00,"$1,204.50"\nbob,2024-03-02T10:00:00-05:00,45\n';
    const profile = await profileInputs(executor, [
      file('signups.csv', signups),
      file('raw.csv', '1,2.5,x\n2,3.5,y\n'),
      file('events.jsonl', '{"user": "a", "amount": 3}\n{"user": "b"}\n'),
    ]);
    const [csv, raw, jsonl] = profile.files;
    expect(csv!.headerless).toBeUndefined();
    expect(csv!.fields).toEqual([
      { name: 'user', type: 'str', example: 'ann' },
      { name: 'signed_up', type: 'date', example: '2024-03-01T09:00:00+01:00', note: expect.stringContaining("pandas.to_datetime(df['signed_up'], utc=True)") },
      { name: 'amount', type: 'str', example: '$1,204.50', note: expect.stringContaining('pandas.to_numeric(') },
    ]);
    expect(raw!.headerless).toBe(true);
    expect(raw!.fields!.map((f) => [f.name, f.type])).toEqual([[0, 'int'], [1, 'float'], [2, 'str']]);
    expect(jsonl!.fields!.map((f) => [f.name, f.type, f.example])).toEqual([['user', 'str', 'a'], ['amount', 'int', '3']]);
  });
});
