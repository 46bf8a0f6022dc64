/**
 * Discord's markup profile (src/chat/port.ts: ThreadMarkup): each neutral view of a run's thread as
 * a Discord message (render.ts: 2000 characters, code blocks, files attached to the message they
 * belong to, buttons).
 */
import type { ThreadMarkup } from '../../src/chat/port.js';
import { neutraliseFences } from '../../src/chat/format.js';
import { progressText } from '../../src/chat/progress-text.js';
import type { Attempt } from '../../src/history/types.js';
import { artifactMessages, codeMessage, finalMessage, improvingMessage, memoryOfferMessage, noticeMessage, oneLine, resultMessage, streamingCodeMessage, type Outgoing } from './render.js';

/** Discord's markup profile. */
export const discordMarkup: ThreadMarkup<Outgoing> = {
  progress: (line) => ({ content: neutraliseFences(progressText(line)) }),
  partialCode: (attempt, _lastAttempt, code) => streamingCodeMessage(attempt, code),
  code(shown, streamed) {
    const attempt: Attempt = {
      index: shown.attempt,
      trigger: shown.trigger,
      code: shown.code,
      ...(shown.error ? { error: shown.error } : {}),
      usage: { promptTokens: 0, completionTokens: 0 },
      createdAt: new Date().toISOString(),
    };
    const final = codeMessage(attempt);
    // an edit cannot add files: the streamed message then points to the code posted below it
    if (streamed && final.files?.length) return { edit: { content: `**Attempt ${shown.attempt}** · the whole code is below` }, post: final };
    return { edit: final };
  },
  result: (view) => [resultMessage(view.attempt, view.result), ...artifactMessages(view.attempt, view.result)],
  notice: noticeMessage,
  improving: (view) => improvingMessage(view.retry, view.maxRetries, view.reason),
  final: finalMessage,
  memoryOffer: memoryOfferMessage,
  failure: (reason) => ({ content: `❌ **Failed**: ${neutraliseFences(reason)}` }),
  note: (text) => ({ content: `⚠️ ${neutraliseFences(text)}` }),
  withdrawn: (notice, correction) => ({ content: `ℹ️ ~~${neutraliseFences(oneLine(notice, 300))}~~ ${neutraliseFences(correction)}` }),
};
