/**
 * How a run's memory reads in its prompt: the definitions open the request's context for every
 * program call of the run (its attempts and its independent programs); the approved examples follow
 * the input profile in its attempts' first message only (the independent programs must read the
 * request on their own, or they would copy the example and agree with it by construction).
 */
import type { RunMemory } from '../history/types.js';
import type { DefinitionHelper } from '../history/memory.js';
import { helperDoc, helperSignature } from './helpers.js';
import { pythonSigns } from '../text/python-signs.js';

/**
 * The definitions of the run's channel (most relevant first), or '' when it has none. Framed as a
 * glossary, not as tasks: a small model given a list of definitions computes every one of them
 * (seen on the team set: a request about revenue answered with revenue, net sales, big deals,
 * headcount…). Math signs are written as Python writes them (`×` → `*`), or the model copies them
 * into the code.
 */
export function definitionsSection(memory: RunMemory | undefined): string {
  if (!memory || memory.definitions.length === 0) return '';
  const lines = memory.definitions.map((d) => `- ${pythonSigns(d.text)}${d.helper ? `\n${helperLine(d.helper)}` : ''}`).join('\n');
  return `Glossary of the team that asks (what their words mean; these are not tasks). Where the request or its data uses one of these words, it means what is written here; compute only what the request asks:\n${lines}`;
}

/**
 * How a definition's helper reads under it: the import, its signature and what it returns, and
 * that it is written and checked already (the program calls it instead of computing the definition).
 */
function helperLine(helper: DefinitionHelper): string {
  const doc = helperDoc(helper.code);
  return `  This definition is already written as code in team.py (in the working directory): \`from team import ${helper.name}\`, then ${helperSignature(helper.code, helper.name)}${doc ? ` returns ${doc.replace(/^returns?\s+/i, '')}` : ''}. ` +
    'Use it on the DataFrame you read instead of computing this yourself.';
}


/** The approved examples given to the run, or '' when none. */
export function examplesSection(memory: RunMemory | undefined): string {
  if (!memory || memory.examples.length === 0) return '';
  const blocks = memory.examples.map((x) => {
    const files = x.inputSummary.trim() === '' ? '' : `\nFiles: ${x.inputSummary}`;
    return `Request: ${x.request}${files}\nApproved program:\n\`\`\`python\n${x.code.replace(/```/g, '` ` `')}\n\`\`\``;
  });
  return `The team approved these programs for similar requests in this channel. Read the data the way they do (which fields, which rows, how values are combined), but answer the request above:\n\n${blocks.join('\n\n')}`;
}
