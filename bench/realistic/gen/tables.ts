/**
 * Generated tables in the shapes people actually send: CSV without a header, tab-separated,
 * semicolon-separated with German number and date formats, and hand-typed amounts.
 */
import { Rng, pad2 } from './rng.js';

/** One row of readings.csv (no header: sensor, timestamp, °C). */
export interface Reading {
  sensor: string;
  at: string;
  celsius: number;
}

function readings(): Reading[] {
  const rng = new Rng(515);
  const base: Record<string, number> = { 'T-01': 19.5, 'T-02': 21.0, 'T-03': 23.5, 'T-04': 17.0 };
  const out: Reading[] = [];
  for (let i = 0; i < 120; i++) {
    const sensor = Object.keys(base)[i % 4]!;
    const minutes = 8 * 60 + Math.floor(i / 4) * 15;
    // the first reading (a sensor just switched on) is far from its usual value
    const celsius = i === 0 ? 31.8 : Math.round((base[sensor]! + (rng.next() - 0.5) * 3) * 10) / 10;
    out.push({ sensor, at: `2024-06-03T${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`, celsius });
  }
  return out;
}

/** The rows of readings.csv. */
export const READINGS: readonly Reading[] = readings();
/** readings.csv, without a header row. */
export const READINGS_CSV = `${READINGS.map((r) => `${r.sensor},${r.at},${r.celsius.toFixed(1)}`).join('\n')}\n`;

/** One row of scores.csv (no header: name, points); the top scorer is the first row. */
export interface Score {
  name: string;
  points: number;
}

function scores(): Score[] {
  const rng = new Rng(8080);
  const first = ['Amira', 'Bjorn', 'Carla', 'Dmitri', 'Emeka', 'Freya', 'Goran', 'Helga', 'Ines', 'Jonas', 'Kaito', 'Liv', 'Marek', 'Nadia', 'Oskar', 'Priya', 'Rafael', 'Sigrid', 'Tomas', 'Ulla', 'Viktor', 'Wen', 'Yusuf', 'Zofia'];
  const out: Score[] = [{ name: first[0]!, points: 97 }];
  for (const name of first.slice(1)) out.push({ name, points: rng.int(41, 93) });
  // exactly one runner-up
  out[9] = { name: out[9]!.name, points: 95 };
  return out;
}

/** The rows of scores.csv. */
export const SCORES: readonly Score[] = scores();
/** scores.csv, without a header row. */
export const SCORES_NOHEADER_CSV = `${SCORES.map((s) => `${s.name},${s.points}`).join('\n')}\n`;

/** One row of inventory.tsv. */
export interface StockItem {
  sku: string;
  name: string;
  onHand: number;
  reorderLevel: number;
}

function stock(): StockItem[] {
  const rng = new Rng(2718);
  const names = ['Cable, USB-C 2m', 'Cable, HDMI 1m', 'Mouse pad', 'Toner black', 'Toner cyan', 'Paper A4, 500 sheets', 'Stapler', 'Staples 24/6', 'Label tape 12mm', 'Webcam HD', 'Headset, wired', 'Charger 65W', 'Desk lamp', 'Whiteboard marker', 'Sticky notes, yellow', 'Envelopes C5', 'Batteries AA (4)', 'Batteries AAA (4)', 'SSD 1TB', 'Monitor arm'];
  return names.map((name, i) => {
    const reorderLevel = rng.pick([5, 10, 12, 20, 25, 40]);
    // around the level, with numbers whose text order differs from their numeric order (9 vs 10, 100 vs 20)
    const onHand = rng.pick([reorderLevel - rng.int(1, 4), reorderLevel + rng.int(1, 8), rng.int(2, 9), rng.int(100, 140), reorderLevel]);
    return { sku: `INV-${String(101 + i * 3)}`, name, onHand: Math.max(0, onHand), reorderLevel };
  });
}

/** The rows of inventory.tsv. */
export const STOCK: readonly StockItem[] = stock();
/** inventory.tsv: tab-separated, names with commas and spaces. */
export const INVENTORY_TSV = `sku\tname\ton_hand\treorder_level\n${STOCK.map((s) => `${s.sku}\t${s.name}\t${s.onHand}\t${s.reorderLevel}`).join('\n')}\n`;

/** One row of umsatz.csv. */
export interface Umsatz {
  /** ISO date (the file shows it as dd.mm.yyyy). */
  date: string;
  branch: string;
  amount: number;
}

/** A number in German format: `1.234,56`. */
export function germanAmount(x: number): string {
  const [whole, cents] = x.toFixed(2).split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${cents}`;
}

function umsatz(): Umsatz[] {
  const rng = new Rng(4711);
  const out: Umsatz[] = [];
  for (let i = 0; i < 90; i++) {
    const month = 1 + Math.floor(i / 15);
    const day = 1 + ((i * 7) % 28);
    const amount = rng.chance(0.35) ? rng.cents(1000, 4800) : rng.cents(60, 990);
    out.push({ date: `2024-${pad2(month)}-${pad2(day)}`, branch: rng.weighted(['Berlin', 'Hamburg', 'München', 'Köln'], [4, 3, 3, 2]), amount });
  }
  return out;
}

/** The rows of umsatz.csv (January to June 2024). */
export const UMSATZ: readonly Umsatz[] = umsatz();
/** umsatz.csv: `Datum;Filiale;Betrag`, dates `dd.mm.yyyy`, amounts `1.234,56`. */
export const UMSATZ_CSV = `Datum;Filiale;Betrag\n${UMSATZ.map((u) => `${u.date.slice(8)}.${u.date.slice(5, 7)}.${u.date.slice(0, 4)};${u.branch};${germanAmount(u.amount)}`).join('\n')}\n`;

/** One row of expenses.csv; `amount` is undefined where someone typed n/a. */
export interface Expense {
  date: string;
  category: string;
  amount: number | undefined;
  /** The cell as typed. */
  typed: string;
}

function expenses(): Expense[] {
  const rng = new Rng(1234);
  const out: Expense[] = [];
  for (let i = 0; i < 70; i++) {
    const category = rng.weighted(['Travel', 'Software', 'Meals', 'Hardware'], [3, 2, 4, 2]);
    const big = category === 'Travel' || category === 'Hardware' ? rng.chance(0.45) : rng.chance(0.08);
    const na = rng.chance(0.1);
    const amount = na ? undefined : big ? rng.cents(1000, 3500) : rng.cents(8, 480);
    let typed: string;
    if (amount === undefined) typed = rng.pick(['n/a', 'N/A', 'n/a ']);
    else {
      const text = amount >= 1000 ? amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : rng.chance(0.3) ? String(amount) : amount.toFixed(2);
      typed = `${rng.chance(0.5) ? '$' : ''}${text}`;
      if (rng.chance(0.25)) typed = ` ${typed} `;
    }
    out.push({ date: `2024-07-${pad2(1 + Math.floor(i / 3))}`, category, amount, typed });
  }
  return out;
}

/** The rows of expenses.csv. */
export const EXPENSES: readonly Expense[] = expenses();
/** expenses.csv: amounts typed by hand (`$1,204.50`, ` 45 `, `n/a`); cells with a comma are quoted. */
export const EXPENSES_CSV = `date,category,amount\n${EXPENSES.map((e) => `${e.date},${e.category},${e.typed.includes(',') ? `"${e.typed}"` : e.typed}`).join('\n')}\n`;
