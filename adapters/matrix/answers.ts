/**
 * Matrix's answers to a requester (a refusal, `!history`, `!show`, `!remember`, `!memory`): the
 * views of src/chat/view/answer-markup.ts rendered by Matrix's renderer (renderer.ts).
 */
import type { AnswerMarkup } from '../../src/chat/incoming-port.js';
import { answerMarkup } from '../../src/chat/view/answer-markup.js';
import type { MatrixMessage } from './markup.js';
import { matrixRenderer } from './renderer.js';

/** The answers in Matrix markup. */
export const matrixAnswers: AnswerMarkup<MatrixMessage> = answerMarkup(matrixRenderer);
