/**
 * Verification: what an attempt proved (`verdict.ts`), from checks derived from the request
 * (`checks.ts`, `doctest-checks.ts`, `reply-checks.ts`; guessed constants: `guesses.ts`,
 * `guess-step.ts`; compared by value: `value-compare.ts`), review (`review.ts`) and agreement with
 * independent programs (`agreement.ts`, `agreement-step.ts`, `by-agreement.ts`), with the
 * candidates, two against one, the first answer, the last resort and a same answer that ends a
 * run. Imports `run`, `failures`, `reading`, `requirements`, `replies`.
 */

export { INDEPENDENT_INSTRUCTION, agreeEitherWay, answerAgrees } from './agreement.js';
export { adoptionFeedback, settleByAgreement } from './by-agreement.js';
export { checksRequest } from './checks-request.js';
export { CHECKS_PROMPT, brokenCheck, checkLines, checksPassedText, checksShortfall, deriveChecks } from './checks.js';
export { answerPending } from './first-answer.js';
export { readCheckReport } from './guess-step.js';
export { lastResortAttempt, lastResortReason } from './last-resort.js';
export { checksFromReply, trailingChecks } from './reply-checks.js';
export { REVIEW_PROMPT, reviewResult } from './review.js';
export { adoptLeader, adoptedNote, leadingCandidate } from './two-against-one.js';
export { answeredNothing, answeredOnlyMissing, judgeAttempt, keptAttempt, requestSoFar, sameCodeAs, stopReason } from './verdict.js';
export type { Verdict } from './verdict.js';
