/**
 * Memory use: a new run given its channel's memory (`memory-step.ts`) and the definitions' helpers
 * written as code (`helper-step.ts`). Imports `run`, `replies`.
 */

export { giveHelpers } from './helper-step.js';
export { recallMemory } from './memory-step.js';
