/**
 * What went wrong in an execution, in words: the failure as one line and as the report the model
 * reads (`failure.ts`, tracebacks without library frames), failures no code can fix
 * (`unfixable.ts`), failures that repeat (`repeated-failure.ts`), and what the sandbox offers
 * (`environment-text.ts`). Imports only `run`.
 */

export { availableLibraries, librariesSentence } from './environment-text.js';
export { describeResult, summarizeFailure } from './failure.js';
export { factsOfFailure, repeatedFailureStop, sameFailureNote, sameFailuresBefore, stretch } from './repeated-failure.js';
export { missingModule, unfixableFailure } from './unfixable.js';
