import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundLine, boundMiddle, cutChars, cutCharsEnd, shortLine } from '../../src/text/cut.js';
import { completeUtf8Length } from '../../src/text/utf8.js';
import { redactUrls } from '../../src/text/redact.js';
import { CappedOutput } from '../../src/sandbox/output.js';

describe('cutting on character boundaries', () => {
  it('never leaves half a surrogate pair, at either end', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.nat(220), (text, n) => {
        const head = cutChars(text, n);
        const tail = cutCharsEnd(text, n);
        expect(head.length).toBeLessThanOrEqual(n);
        expect(tail.length).toBeLessThanOrEqual(n);
        expect(head.isWellFormed() && tail.isWellFormed()).toBe(true);
        expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
      }),
    );
  });

  it('bounds lines and texts with a marker that says how much was left out', () => {
    const line = boundLine('y'.repeat(3500), 500);
    expect(line.length).toBeLessThanOrEqual(500);
    expect(line).toMatch(/… \(\d+ more characters\)$/);
    const text = boundMiddle(`${'a'.repeat(10_000)}\nValueError: end`, 1000);
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text).toMatch(/^a+\n… \(\d+ characters left out\) …\na+\nValueError: end$/);
  });

  it('makes a short line of a title: one space for each run of whitespace, a cut marked … and never half an emoji', () => {
    expect(shortLine('  plot\n\n a   sine ', 100)).toBe('plot a sine');
    expect(shortLine('abcdef', 4)).toBe('abc…');
    expect(shortLine('abcd', 4)).toBe('abcd');
    const cut = shortLine(`ab${'😀'.repeat(3)}`, 4); // the pair at index 2-3 would be split by a plain slice
    expect(cut).toBe('ab…');
    expect(cut.isWellFormed()).toBe(true);
  });
});

describe('UTF-8 at a byte cap (C4)', () => {
  it('drops a character the cap cut in half instead of showing U+FFFD', () => {
    const bytes = Buffer.from('b' + '数'.repeat(10));
    for (let cap = 1; cap < bytes.length; cap++) {
      const out = new CappedOutput(cap, () => undefined);
      out.push('stdout', bytes);
      const text = out.text('stdout');
      expect(text).not.toContain('\ufffd');
      expect(text).toMatch(/^b数*\n\[output truncated: more than \d+ bytes\]\n$/);
    }
    expect(completeUtf8Length(Buffer.from('ab'))).toBe(2);
    expect(completeUtf8Length(Buffer.from('😀').subarray(0, 3))).toBe(0);
  });
});

describe('URLs in messages', () => {
  it('lose credentials, query strings and fragments', () => {
    const text = 'cannot reach the LLM at http://user:s3cret@llm.internal:8080/v1?api_key=sk-123#x (ECONNREFUSED).';
    expect(redactUrls(text)).toBe('cannot reach the LLM at http://llm.internal:8080/v1 (ECONNREFUSED).');
  });
});
