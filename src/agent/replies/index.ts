/**
 * Asking the LLM for a program and taking its reply: how every program call opens (`prompts.ts`),
 * a reply taken only when whole (`reply.ts`, `runaway.ts`), the code found in it (`extract.ts`, its
 * parts in `extraction/`) and shown while it streams (`partial-code.ts`). Imports `run`,
 * `failures`, `requirements`.
 */

export { extractCode } from './extract.js';
export { codeStreamer } from './partial-code.js';
export { SYSTEM_PROMPT, firstMessage, sharedOpening, systemPrompt } from './prompts.js';
export type { PromptOptions } from './prompts.js';
export { askForProgram, samplingAfter } from './reply.js';
