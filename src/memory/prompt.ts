/**
 * How a run's memory reads in its prompt: the definitions open the request's context for every
 * program call of the run (its attempts and its independent programs); the approved examples follow
 * the input profile in its attempts' first message only (the independent programs must read the
 * request on their own, or they would copy the example and agree with it by construction).
 */
import type { RunMemory } from '../history/types.js';

/** The definitions of the run's channel, or '' when it has none. */
export function definitionsSection(memory: RunMemory | undefined): string {
  if (!memory || memory.definitions.length === 0) return '';
  return `The team in this channel defined these words; read the request with them:\n${memory.definitions.map((d) => `- ${d.text}`).join('\n')}`;
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
