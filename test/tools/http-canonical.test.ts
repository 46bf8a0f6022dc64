/** The redaction's canonical view: a credential found with any of its characters escaped, in any of the promised ways, and only there. */
import { describe, expect, it } from 'vitest';
import { Canonical } from '../../src/tools/http/canonical.js';
import { Redactor } from '../../src/tools/http/redact.js';

const TOKEN = 'Zm9v/YmFy+YmF6=cXV4Qk';
const redactor = new Redactor([`Bearer ${TOKEN}`]);
const pct = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

describe('the canonical view', () => {
  it('maps each byte of the view back to the original text', () => {
    const data = Buffer.from('a%2Fb\\u0063&#100;e');
    const view = Canonical.of(data);
    expect(view.bytes.toString()).toBe('a/bcde');
    expect(view.original(1, 2)).toEqual([1, 4]);
    expect(view.original(0, 6)).toEqual([0, data.length]);
    expect(view.original(5, 6)).toEqual([data.length - 1, data.length]);
  });

  it('leaves a text without escapes as it is', () => {
    const data = Buffer.from('plain text, 100% sure & \\n done');
    expect(Canonical.of(data).bytes.equals(data)).toBe(true);
  });
});

describe('the redactor', () => {
  it.each([
    ['every character percent-encoded', [...TOKEN].map(pct).join('')],
    ['only / + = encoded (Python quote)', TOKEN.replace(/[/+=]/g, pct)],
    ['only + and = encoded, lower-case hex', TOKEN.replace(/[+=]/g, (c) => pct(c).toLowerCase())],
    ['quoted twice', TOKEN.replace(/[/+=]/g, (c) => `%25${pct(c).slice(1)}`)],
    ['quoted three times', [...TOKEN].map((c) => `%2525${pct(c).slice(1)}`).join('')],
    ['JSON \\u escapes', [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['JSON inside JSON', JSON.stringify(JSON.stringify(TOKEN.replace('/', '\\/')))],
    ['JavaScript \\x escapes', [...TOKEN].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('')],
    ['HTML references', [...TOKEN].map((c) => `&#${c.charCodeAt(0)};`).join('')],
    ['upper case', TOKEN.toUpperCase()],
    ['base64, quoted', encodeURIComponent(Buffer.from(`xx${TOKEN}yy`).toString('base64'))],
    ['hex, at an odd byte', Buffer.from(`x${TOKEN}`).toString('hex')],
  ])('finds it %s', (_what, form) => {
    const out = redactor.redactText(`before ${form} after`);
    expect(out).toContain('[redacted]');
    expect(out.startsWith('before ')).toBe(true);
    expect(out.endsWith(' after')).toBe(true);
    expect(out.toLowerCase()).not.toContain('zm9v');
  });

  it('leaves other text alone, escapes and all', () => {
    const text = 'a=1&b=%2F%2B {"x": "\\u0041\\/"} &amp; 0123456789abcdef';
    expect(redactor.redactText(text)).toBe(text);
  });

  it('reads a 10 MB body with escapes throughout', () => {
    const body = Buffer.from(`${'lorem %2F ipsum \\u0041 &amp; '.repeat(350_000)}${encodeURIComponent(TOKEN)}`);
    const out = redactor.redact(body);
    expect(out.toString().endsWith('[redacted]')).toBe(true);
    expect(out.length).toBe(body.length - encodeURIComponent(TOKEN).length + '[redacted]'.length);
  });
});
