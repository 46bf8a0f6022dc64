/**
 * One {@link AnswerMarkup} for every platform, built from its view renderer: the answers to a
 * requester (a plain text, `/history`, `/show`, `/remember` and `/memory`, the team programs' and
 * schedules' lists, `/usage`) are composed once as views (text-view.ts, history-view.ts,
 * show-view.ts) and rendered by the platform's renderer. An answer is one message: when a view
 * renders as several, the answer is composed again with less (fewer rows, fewer lines, less of the
 * run) until it fits; what could never fit is answered with the renderer's first message, which is
 * well-formed on its own.
 */
import type { AnswerMarkup } from '../incoming-port.js';
import type { View, ViewRenderer } from './blocks.js';
import { historyView, type ThreadLink } from './history-view.js';
import { SHOW_DETAILS, showView } from './show-view.js';
import { wordSpelling, type ShowSpelling } from './show-spelling.js';
import { noticeView, textView } from './text-view.js';

/** What a platform says besides its renderer; every field has a default. */
export interface AnswerOptions<M, A> {
  /**
   * Whether rendered messages make one answer. Default: exactly one message. A platform whose
   * answers cannot carry files (Slack's ephemeral text) also refuses messages that carry them.
   */
  fits?(messages: M[]): boolean;
  /** The answer made of a rendered message. Default: the message itself (`A` = `M`). */
  answer?(message: M): A;
  /** How the platform spells `/show`'s arguments. Default: typed words after `names.show`. */
  spelling?: (names: { show: string }) => ShowSpelling;
  /** A link to a run's thread for `/history`'s rows. Default: none. */
  threadLink?: ThreadLink;
}

/**
 * The largest `keep` in 1…`n` whose view fits (fitting is taken to shrink as `keep` grows), and
 * its messages; `keep` 1 when none fits.
 */
function largestFitting<M>(n: number, build: (keep: number) => View, render: (view: View) => M[], fits: (messages: M[]) => boolean): M[] {
  const whole = render(build(n));
  if (n <= 1 || fits(whole)) return whole;
  let lo = 1;
  let hi = n - 1;
  let best: M[] | undefined;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const messages = render(build(mid));
    if (fits(messages)) {
      best = messages;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best ?? render(build(1));
}

/**
 * A platform's answer markup from its renderer (see the module comment).
 * @param renderer the platform's renderer (adapters/<platform>/renderer.ts)
 */
export function answerMarkup<M>(renderer: ViewRenderer<M>, options?: AnswerOptions<M, M>): AnswerMarkup<M>;
export function answerMarkup<M, A>(renderer: ViewRenderer<M>, options: AnswerOptions<M, A> & { answer(message: M): A }): AnswerMarkup<A>;
export function answerMarkup<M, A>(renderer: ViewRenderer<M>, options: AnswerOptions<M, A> = {}): AnswerMarkup<A> {
  const fits = options.fits ?? ((messages: M[]) => messages.length === 1);
  const answer = options.answer ?? ((message: M) => message as unknown as A);
  const spelling = options.spelling ?? wordSpelling;
  const render = (view: View) => renderer.render(view);
  const first = (messages: M[]) => answer(messages[0] ?? renderer.render(textView('…'))[0]!);
  return {
    text: (plain) => first(render(textView(plain))),
    history: (view, names) => first(largestFitting(view.runs.length, (keep) => historyView(view, spelling(names), options.threadLink, keep), render, fits)),
    show(view, names) {
      let messages: M[] = [];
      for (const detail of SHOW_DETAILS) {
        messages = render(showView(view, spelling(names), detail));
        if (fits(messages)) break;
      }
      return first(messages);
    },
    memory: (reply) => first(largestFitting(reply.lines.length, (keep) => noticeView(reply, keep), render, fits)),
  };
}
