import { describe, expect, it } from 'vitest';
import { errorLine } from '../../src/text/error-line.js';

describe('errorLine', () => {
  it('puts an HTTP status and an API code before the message (a discord.js REST error)', () => {
    const err = Object.assign(new Error('Unknown Message'), { status: 404, code: 10008 });
    expect(errorLine(err)).toBe('404 10008 Unknown Message');
  });

  it('keeps only the first line, at most 300 characters', () => {
    expect(errorLine(new Error(`M_FORBIDDEN: ${'x'.repeat(400)}\nstack-ish`))).toHaveLength(300);
    expect(errorLine(new Error('M_FORBIDDEN: not in room\nmore'))).toBe('M_FORBIDDEN: not in room');
  });

  it('does not repeat a code the message already names (a Node network error)', () => {
    const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(errorLine(err)).toBe('connect ECONNREFUSED 127.0.0.1:9');
  });

  it('describes what is not an Error', () => {
    expect(errorLine('socket hang up')).toBe('socket hang up');
    expect(errorLine(undefined)).toBe('undefined');
  });
});
