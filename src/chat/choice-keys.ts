/**
 * A finished run's choices (settle-view.ts {@link choicesOf}) as reaction keys, for a platform whose
 * affordance is a reaction on the run's last message rather than a button (Matrix): 1️⃣ … 🔟 per
 * candidate, ❌ for "Neither", 👍/👎 to approve or reject, ✍️ for "Write a new program" (a run that
 * ran a team program found for its request), and 🔁 to run the latest code again. The
 * meaning of each key is the button's of the same choice on Slack and Discord.
 *
 * Keys are sent fully qualified (U+FE0F where the emoji takes it: the spec's `m.reaction` asks it of
 * an emoji key, https://spec.matrix.org/v1.11/client-server-api/#mreaction) and matched without
 * U+FE0F or a skin tone (U+1F3FB–U+1F3FF), since clients differ (Element strips variation selectors
 * from some emoji and adds them to others) and 👍🏽 means 👍. Platform-neutral: pure functions, our own words.
 */
import { NEW_PROGRAM_CHOICE, SAVE_PROGRAM_CHOICE, type Choice } from './settle-view.js';

/** The key that runs a run's latest code again (`rerun`). */
export const RERUN_KEY = '🔁';
/** Candidate `n`'s key is `KEYCAPS[n - 1]`: keycap digits, then 🔟. A candidate past the tenth has none. */
const KEYCAPS = ['1️⃣', '2️⃣', '3️⃣', '4️⃣', '5️⃣', '6️⃣', '7️⃣', '8️⃣', '9️⃣', '🔟'];
const OTHER_KEYS: Record<string, string> = { 'settle:neither': '❌', 'approve:up': '👍', 'approve:down': '👎', [NEW_PROGRAM_CHOICE]: '✍️' };

/** One choice of a run with its reaction key. */
export interface ChoiceKey extends Choice {
  key: string;
  /**
   * Whether the app adds this reaction itself, so that a person only clicks it: the candidates and
   * ❌ (keycaps are hard to find in an emoji picker, and the choice is what the run waits for), not
   * 👍/👎 (every client's quick reactions have them; added on every answer they would read as the
   * app approving its own answer).
   */
  seeded: boolean;
}

/** A key as compared: without U+FE0F (emoji presentation selector) and skin tones. */
const bare = (key: string) => key.replace(/[\ufe0f\u{1f3fb}-\u{1f3ff}]/gu, '');
const KNOWN = new Set([...KEYCAPS, ...Object.values(OTHER_KEYS), RERUN_KEY].map(bare));

/** The reaction key of a choice id (`settle:2` → 2️⃣, `approve:up` → 👍); undefined when it has none. */
export function keyOfChoice(id: string): string | undefined {
  const n = /^settle:(\d+)$/.exec(id);
  return n ? KEYCAPS[Number(n[1]) - 1] : OTHER_KEYS[id];
}

/**
 * Choices with their keys (a run's: settle-view.ts `choicesOf`; a view's actions on a run), in order; those
 * without a key are left out.
 */
export function choiceKeys(choices: readonly Choice[]): ChoiceKey[] {
  return choices.flatMap((c) => {
    const key = keyOfChoice(c.id);
    return key ? [{ ...c, key, seeded: c.id.startsWith('settle:') }] : [];
  });
}

/** Whether `key` is one of this app's reaction keys (a reaction with any other key is not for the app). */
export const isAppKey = (key: string): boolean => KNOWN.has(bare(key));

/** Whether `key` is {@link RERUN_KEY}. */
export const isRerunKey = (key: string): boolean => bare(key) === bare(RERUN_KEY);

/**
 * The choice id a reaction `key` picks among those a message offered (`offered`: key → choice id,
 * as {@link offeredChoices} made it; untrusted JSON); undefined when that message did not offer it.
 */
export function choiceOfKey(offered: unknown, key: string): string | undefined {
  if (!offered || typeof offered !== 'object') return undefined;
  const hit = Object.entries(offered as Record<string, unknown>).find(([k, id]) => bare(k) === bare(key) && typeof id === 'string');
  return hit?.[1] as string | undefined;
}

/** What a last message carries so that a reaction on it can be read back: key → choice id. */
export function offeredChoices(keys: ChoiceKey[]): Record<string, string> {
  return Object.fromEntries(keys.map((k) => [k.key, k.id]));
}

/** The sentence saying which reaction does what (empty when there is no choice), e.g. `React 1️⃣ or 2️⃣ …`. */
export function choiceKeysHint(keys: ChoiceKey[]): string {
  const candidates = keys.filter((k) => /^settle:\d+$/.test(k.id)).map((k) => k.key);
  const neither = keys.find((k) => k.id === 'settle:neither');
  const up = keys.find((k) => k.id === 'approve:up');
  const down = keys.find((k) => k.id === 'approve:down');
  const pick = candidates.length
    ? `React ${candidates.slice(0, -1).join(', ')}${candidates.length > 1 ? ' or ' : ''}${candidates.at(-1)} to pick the right answer (no new LLM call)${neither ? `, ${neither.key} if none is` : ''}.`
    : '';
  const verdict = up && down ? `React ${up.key} to approve the answer, ${down.key} if something is wrong.` : '';
  const fresh = keys.find((k) => k.id === NEW_PROGRAM_CHOICE);
  const instead = fresh ? `React ${fresh.key} to have a new program written for the request instead of the team program.` : '';
  return [pick, verdict, instead].filter(Boolean).join(' ');
}

/** What a message offering a view's actions as reactions adds and carries, and what it says of them. */
export interface ReactionOffer {
  /** Key → choice id, to read a reaction back ({@link offeredChoices}; 🔁 is known without it). */
  offered: Record<string, string>;
  /** Whether `rerun` is offered (as {@link RERUN_KEY}). */
  rerun: boolean;
  /** The keys the app adds itself under the message: the seeded choices' (see {@link ChoiceKey}), then 🔁. */
  seeded: string[];
  /** The sentences saying what each key does ('' when none): {@link choiceKeysHint}'s, 🔁's, and how to keep the run as a team program when that is offered. */
  hint: string;
}

/**
 * A view's actions on a run (src/chat/view/blocks.ts `Action`: a choice's id and label, or
 * `rerun`) offered as reactions instead of buttons.
 * @param saveCommand how the platform's people save a run as a team program, e.g. `!program save <name>`
 */
export function reactionOffer(actions: readonly Choice[], saveCommand: string): ReactionOffer {
  const keys = choiceKeys(actions);
  const rerun = actions.find((a) => a.id === 'rerun');
  const hint = [
    choiceKeysHint(keys),
    rerun ? `React ${RERUN_KEY} to ${rerun.label.toLowerCase()} it.` : '',
    actions.some((a) => a.id === SAVE_PROGRAM_CHOICE) ? `To keep it as a team program (run again by name, no LLM call): \`${saveCommand}\` in this thread.` : '',
  ].filter(Boolean);
  const seeded = [...keys.filter((k) => k.seeded).map((k) => k.key), ...(rerun ? [RERUN_KEY] : [])];
  return { offered: offeredChoices(keys), rerun: rerun !== undefined, seeded, hint: hint.join(' ') };
}
