/**
 * What every chat platform says, in one wording (plain text; each platform escapes it for its
 * markup): refusals of the limits, the queue position, a queue that could not be reached, a
 * requirement over the limit, a repeated delivery, a reading not remembered, and the Improve form.
 */
import type { Refusal } from './job-limits.js';

/** A refusal of the job limits. */
export function busyText(reason: Refusal): string {
  return reason === 'user_busy'
    ? 'You already have a job running; wait for it to finish, then try again.'
    : 'This channel has too many jobs queued right now; try again in a minute.';
}

/** An admitted job that waits: how many jobs start before it. */
export function queuedText(ahead: number): string {
  return `Queued: ${ahead} job(s) ahead of yours.`;
}

/** The queue could not take the job (its store is down). */
export function couldNotQueueText(err: Error): string {
  return `Could not queue your job (${err.message}); try again in a minute.`;
}

/** A requirement longer than the agent takes. */
export function tooLongText(length: number, max: number): string {
  return `Your request is ${length} characters long; the limit is ${max}. Shorten it and try again.`;
}

/** A request delivered again after it was handled (shown where a platform must answer every delivery). */
export const ALREADY_HANDLED = 'This request was already handled.';

/** The answer to "Just this time" on a reading a reply corrected: the channel's memory keeps nothing. */
export const NOT_REMEMBERED = 'Not remembered: only this run read it that way.';

/** The Improve button's form (a modal on Slack and Discord): its title, its submit button, and the one question it asks. */
export const IMPROVE_FORM = { title: 'Improve the code', submit: 'Improve', question: 'What should change?' } as const;
