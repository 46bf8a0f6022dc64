/**
 * What a click on a view's action on a run asks for (src/chat/view/blocks.ts `Action`: a button on
 * Slack and Discord), written once: Re-run, Remember and a choice (a candidate, "Neither", 👍/👎,
 * saving, a new program) are requests on the run; Improve asks for the feedback in a form first;
 * Just this time is answered at once. Each platform spells the action in its own ids (Slack's
 * `action_id`, Discord's `custom_id`) and reads it back to an action id before asking here.
 * Platform-neutral: pure functions, our own words.
 */
import type { RequestKind } from './incoming-port.js';
import { NOT_REMEMBERED } from './messages.js';

/**
 * The actions on a run that are no choice: Re-run and Improve under its final message
 * (view/final-view.ts `runActions`), Remember and Just this time under the offer to remember a
 * correction (view/thread.ts). Every other action id is a choice id (src/chat/settle-view.ts).
 */
export const RUN_ACTIONS = ['rerun', 'improve', 'remember', 'just-this-time'] as const;

/** One of {@link RUN_ACTIONS}. */
export type RunAction = (typeof RUN_ACTIONS)[number];

/** The run action an action id is; undefined for a choice id. */
export const runActionOf = (id: string): RunAction | undefined => RUN_ACTIONS.find((a) => a === id);

/**
 * What a click on an action means:
 * - `request`: a request of that kind on the action's run, with `text` (the choice id for `settle`, else empty);
 * - `form`: Improve: the platform asks for the feedback in a form (messages.ts `IMPROVE_FORM`), whose
 *   submission is an `improve` request with it (access first: a refused person gets no form);
 * - `answer`: said at once to the clicker alone, nothing else happens.
 */
export type ActionMeaning = { request: Extract<RequestKind, 'rerun' | 'remember' | 'settle'>; text: string } | { form: 'improve' } | { answer: string };

/** What a click on the action `id` (a {@link RunAction} or a choice id) means. */
export function actionMeaning(id: string): ActionMeaning {
  switch (runActionOf(id)) {
    case 'rerun':
      return { request: 'rerun', text: '' };
    case 'remember':
      return { request: 'remember', text: '' };
    case 'improve':
      return { form: 'improve' };
    case 'just-this-time':
      return { answer: NOT_REMEMBERED };
    default:
      return { request: 'settle', text: id };
  }
}
