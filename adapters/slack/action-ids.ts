/**
 * The action ids of Slack's buttons on a run (Block Kit `action_id`): what the renderer puts on a
 * button (renderer.ts) and what the click handlers match (actions.ts, choices.ts).
 */

/** Action ids of the buttons on a run's final message (the button's value is the run id). */
export const RERUN_ACTION = 'ca_rerun';
export const IMPROVE_ACTION = 'ca_improve';

/** Action ids of the offer to remember a correction (the button's value is the run id). */
export const REMEMBER_ACTION = 'ca_remember';
export const JUST_THIS_TIME_ACTION = 'ca_just_this_time';

/** Action id prefix of a choice button (a candidate, "Neither"): `ca_choice:<choice id>` (src/chat/settle-view.ts); the value is the run id. */
export const CHOICE_ACTION_PREFIX = 'ca_choice:';
/** Action id of the 👍/👎 feedback buttons; each button's value is `<choice id>|<run id>`. */
export const FEEDBACK_ACTION = 'ca_feedback';
