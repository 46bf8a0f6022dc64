/**
 * What the request states beyond its answer: the methods it names (`methods/`, the table of
 * conventions and a program's calls read in the sandbox), the answer's form (`answer-form.ts`) and
 * the files it asks to be written (`requested-files.ts`). Imports no other room.
 */

export { formFault } from './answer-form.js';
export { unmetFeedback, unmetRequirements } from './methods/requirements.js';
export { methodsSection, statedMethods } from './methods/stated.js';
export { NO_CHART_FEEDBACK, NO_CHART_REASON, missingChart, missingOutputs, missingOutputsFeedback, missingOutputsReason } from './requested-files.js';
