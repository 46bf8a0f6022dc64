/**
 * One function makes a platform's {@link ThreadMarkup} from its renderer: every message of a
 * thread is composed once (thread.ts, final-view.ts) and rendered by the platform. What differs
 * between platforms is said in {@link ThreadPlatform}, never in words.
 */
import type { ThreadMarkup } from '../port.js';
import type { View, ViewRenderer } from './blocks.js';
import { finalView } from './final-view.js';
import { codeBelowView, codeView, failureView, improvingView, memoryOfferView, noteView, noticeView, partialCodeView, progressView, resultView, withdrawnView } from './thread.js';

/** What a platform brings to its thread's markup besides its renderer. */
export interface ThreadPlatform<M> {
  renderer: ViewRenderer<M>;
  /**
   * Whether a message carries files. Given when editing a message cannot add files to it (Discord):
   * the streamed code message then says the code is below, and the code follows with its file.
   */
  hasFiles?: (msg: M) => boolean;
  /**
   * What a person sends to remember a sentence, for a platform without buttons (Matrix: `!remember`):
   * the memory offer names it instead of offering [Remember] [Just this time].
   */
  rememberCommand?: string;
}

/**
 * A view as the one message a thread shows for it: the renderer's first message, which holds the
 * whole view for every view composed here (they are bounded to fit one message on every platform;
 * a renderer only splits what cannot fit).
 */
function one<M>(renderer: ViewRenderer<M>, view: View): M {
  return renderer.render(view)[0]!;
}

/** The {@link ThreadMarkup} of a platform. */
export function threadMarkup<M>(platform: ThreadPlatform<M>): ThreadMarkup<M> {
  const { renderer } = platform;
  const show = (view: View) => one(renderer, view);
  return {
    progress: (line) => show(progressView(line)),
    partialCode: (attempt, _lastAttempt, code) => show(partialCodeView(attempt, code)),
    code(shown, streamed) {
      const msg = show(codeView(shown));
      if (streamed && platform.hasFiles?.(msg)) return { edit: show(codeBelowView(shown.attempt)), post: msg };
      return { edit: msg };
    },
    result: (view) => renderer.render(resultView(view.attempt, view.result)),
    notice: (notice) => show(noticeView(notice)),
    improving: (view) => show(improvingView(view.retry, view.maxRetries, view.reason)),
    final: (run, workspace) => show(finalView(run, workspace)),
    failure: (reason) => show(failureView(reason)),
    note: (text) => show(noteView(text)),
    memoryOffer: (offer) => show(memoryOfferView(offer, platform.rememberCommand)),
    withdrawn: (notice, correction) => show(withdrawnView(notice, correction)),
  };
}
