/** Generated event data: JSON lines of web-shop events, and sign-ups with ISO timestamps in several offsets. */
import { Rng, pad2 } from './rng.js';

/** One line of events.jsonl; `amount` only on purchases. */
export interface ShopEvent {
  ts: string;
  user: string;
  type: 'view' | 'add_to_cart' | 'purchase';
  amount?: number;
}

function shopEvents(): ShopEvent[] {
  const rng = new Rng(6060);
  const out: ShopEvent[] = [];
  let seconds = 9 * 3600;
  for (let i = 0; i < 200; i++) {
    seconds += rng.int(10, 120);
    const user = `u${rng.int(1, 45)}`;
    const type = rng.weighted(['view', 'add_to_cart', 'purchase'] as const, [12, 4, 3]);
    const ts = `2024-06-03T${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}Z`;
    out.push(type === 'purchase' ? { ts, user, type, amount: rng.cents(9, 240) } : { ts, user, type });
  }
  return out;
}

/** The lines of events.jsonl. */
export const SHOP_EVENTS: readonly ShopEvent[] = shopEvents();
/** events.jsonl: one JSON object per line. */
export const EVENTS_JSONL = `${SHOP_EVENTS.map((e) => JSON.stringify(e)).join('\n')}\n`;

/** One row of signups.csv. */
export interface Signup {
  user: string;
  /** As written in the file: local time with its offset (`2024-03-09T21:15:00-05:00`). */
  local: string;
  /** The same instant, ms since the epoch. */
  utcMs: number;
}

function signups(): Signup[] {
  const rng = new Rng(1999);
  // offices in New York (-05:00), Oslo (+01:00), Tokyo (+09:00), and some already in UTC
  const offsets: readonly [string, number][] = [['-05:00', -300], ['+01:00', 60], ['+09:00', 540], ['Z', 0]];
  const out: Signup[] = [];
  for (let i = 0; i < 110; i++) {
    const utcMs = Date.UTC(2024, 2, 4) + rng.int(0, 5 * 24 * 60 - 1) * 60_000;
    const [suffix, minutes] = rng.weighted(offsets, [4, 3, 3, 1]);
    const local = new Date(utcMs + minutes * 60_000).toISOString().slice(0, 19);
    out.push({ user: `user${100 + i}`, local: `${local}${suffix}`, utcMs });
  }
  return out.sort((a, b) => a.local.localeCompare(b.local));
}

/** The rows of signups.csv (sorted by the local text, as an export sorted as strings would be). */
export const SIGNUPS: readonly Signup[] = signups();
/** signups.csv: `user,signed_up_at`. */
export const SIGNUPS_CSV = `user,signed_up_at\n${SIGNUPS.map((s) => `${s.user},${s.local}`).join('\n')}\n`;
