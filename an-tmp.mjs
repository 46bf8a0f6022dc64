import { readFileSync } from 'node:fs';
import { extractCode } from './dist/src/agent/extract.js';
const res = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const base = res[0].calls;
const code = (c) => { const e = extractCode(c.content); return 'code' in e ? e.code : `ERR ${e.error}`; };
for (const s of res) {
  let same = 0, sameCode = 0, n = 0; let evalIn = 0; let prompt = 0;
  s.calls.forEach((c, i) => { n++; if (c.content === base[i].content) same++; if (c.kind === 'checks' ? c.content === base[i].content : code(c) === code(base[i])) sameCode++; evalIn += c.timing.promptTokens - c.timing.reusedPromptTokens; prompt += c.timing.promptTokens; });
  const byKind = {};
  for (const c of s.calls) { byKind[c.kind] ??= [0, 0, 0]; byKind[c.kind][0] += c.timing.promptTokens - c.timing.reusedPromptTokens; byKind[c.kind][1] += c.timing.promptTokens; byKind[c.kind][2] += c.timing.completionTokens; }
  console.log(s.name, `identical replies ${same}/${n}, identical code ${sameCode}/${n}, prompt tokens read ${evalIn}/${prompt}`, JSON.stringify(byKind));
}
