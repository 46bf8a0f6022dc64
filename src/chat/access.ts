/**
 * Who may use the bot where (step 1 of admission, src/chat/admission.ts), with one wording of a
 * refusal on every platform. A platform gives its allow lists as places (Slack's channels, Discord's
 * servers and channels, Matrix's rooms) and people (user ids, and Discord's role ids); an empty list
 * allows everyone. The refusal names the config key an admin edits, never the ids it compared.
 */

/** One allow list of places: the request is allowed when one of its `ids` is in `allowed`. */
export interface PlaceList {
  /** The config key of the list, e.g. `slack.allowed_channels`. */
  key: string;
  allowed: readonly string[];
  /** The ids the request is at (a thread's channel and its parent; undefined ids are ignored). */
  ids: ReadonlyArray<string | null | undefined>;
  /** What the place is called on the platform: `channel`, `room`, `server`, `direct message`. */
  place: string;
}

/** A platform's allow lists for one request. */
export interface AccessCheck {
  /** Checked in order; the first that refuses is the one said. */
  places: PlaceList[];
  /** The people list: its config key(s), the allowed ids, the request's ids (the user's, and Discord's role ids). */
  people: { key: string; allowed: readonly string[]; ids: readonly string[] };
}

/**
 * The refusal of a request outside the allow lists (plain text, one line), or undefined when it may go on.
 * @example accessRefusal({ places: [{ key: 'slack.allowed_channels', allowed: ['C1'], ids: ['C2'], place: 'channel' }], people: { key: 'slack.allowed_users', allowed: [], ids: ['U1'] } })
 *   // 'This bot is not enabled in this channel: an admin can add it to `slack.allowed_channels`.'
 */
export function accessRefusal(check: AccessCheck): string | undefined {
  for (const list of check.places) {
    if (list.allowed.length > 0 && !list.ids.some((id) => id && list.allowed.includes(id))) {
      return `This bot is not enabled in this ${list.place}: an admin can add it to \`${list.key}\`.`;
    }
  }
  const { people } = check;
  if (people.allowed.length > 0 && !people.ids.some((id) => people.allowed.includes(id))) {
    return `You are not on the list of people who may use this bot here: an admin can add you to \`${people.key}\`.`;
  }
  return undefined;
}
