/**
 * Requests over JSON input files: a nested export whose records sit under a top-level key
 * (pretty-printed, so its first line is `{`) and JSON lines. Expected values are computed here from
 * the generated records (`../gen/`), not from the files' text.
 */
import { artifactNamed, readCsv } from '../files.js';
import { NESTED_ORDERS, ORDERS_JSON } from '../gen/shop.js';
import { EVENTS_JSONL, SHOP_EVENTS } from '../gen/events.js';
import { biggestFirst, round, sumCents } from '../gen/rng.js';
import { expectNear, expectNumber, expectRows } from '../stdout-checks.js';
import { all, bad, file, ok, type RealisticRequest } from '../types.js';

const ordersJson = () => [file('orders.json', ORDERS_JSON)];
const eventsJsonl = () => [file('events.jsonl', EVENTS_JSONL)];

function totalsBy(key: (country: string, sku: string) => string, value: (qty: number, price: number) => number): Map<string, number> {
  const out = new Map<string, number>();
  for (const o of NESTED_ORDERS) for (const l of o.lines) {
    const k = key(o.customer.country, l.sku);
    out.set(k, round((out.get(k) ?? 0) + value(l.qty, l.price), 2));
  }
  return out;
}

const ITEMS_BY_COUNTRY = biggestFirst(totalsBy((c) => c, (qty) => qty));
const ORDERS_BY_COUNTRY = biggestFirst(
  NESTED_ORDERS.reduce((m, o) => m.set(o.customer.country, (m.get(o.customer.country) ?? 0) + 1), new Map<string, number>()),
);
const REVENUE_BY_SKU = biggestFirst(totalsBy((_, sku) => sku, (qty, price) => qty * price));

const PURCHASES = SHOP_EVENTS.filter((e) => e.type === 'purchase');
const BUYERS = new Set(PURCHASES.map((e) => e.user)).size;
const ALL_USERS = new Set(SHOP_EVENTS.map((e) => e.user)).size;
const PURCHASE_TOTAL = sumCents(PURCHASES.map((e) => e.amount!));

/** The JSON requests, in a fixed order. */
export const JSON_FILE_REQUESTS: RealisticRequest[] = [
  {
    id: 'json-country-most-items',
    kind: 'files',
    requirement: 'orders.json is our order export for May. Which country ordered the most items? Print the country and the number of items.',
    inputFiles: ordersJson(),
    // items = the sum of qty over every line of every order of the country; the country with the
    // most orders is another one (counting orders, or lines, is the typical mistake).
    check: async ({ stdout }) => {
      const [country, items] = ITEMS_BY_COUNTRY[0]!;
      const [byOrders] = ORDERS_BY_COUNTRY[0]!;
      const verdict = expectRows(stdout, [{ name: country, value: items }]);
      if (!verdict.pass) return verdict;
      const first = stdout.search(new RegExp(`\\b(${country}|${byOrders})\\b`));
      return stdout.slice(first).startsWith(byOrders) ? bad(`names ${byOrders} (most orders) first`) : verdict;
    },
  },
  {
    id: 'json-top-skus-revenue',
    kind: 'files',
    requirement: 'From orders.json: what are our top 3 products (sku) by revenue, i.e. qty times price? Show sku and revenue, highest first.',
    inputFiles: ordersJson(),
    // sum of qty × price per sku over all order lines; by units sold the top 3 differ.
    check: async ({ stdout }) =>
      expectRows(
        stdout,
        REVENUE_BY_SKU.slice(0, 3).map(([name, value]) => ({ name, value, tol: 0.011 })),
        [REVENUE_BY_SKU[3]![0]],
      ),
  },
  {
    id: 'json-flatten-lines',
    kind: 'files',
    requirement:
      'Can you turn orders.json into a flat CSV called order_lines.csv? One row per order line, with the order id, the customer country, sku, qty and price.',
    inputFiles: ordersJson(),
    // one row per element of every order's `lines` (keeping only the first line of each order is
    // the typical mistake); each (order id, sku, qty) must be there.
    check: async ({ artifacts }) => {
      const csvFile = artifactNamed(artifacts, 'order_lines.csv');
      if (!csvFile) return bad('no order_lines.csv written');
      const csv = readCsv(csvFile);
      const col = (re: RegExp) => csv.header.findIndex((h) => re.test(h));
      const [id, sku, qty] = [col(/id/i), col(/sku/i), col(/qty|quant/i)];
      if (id < 0 || sku < 0 || qty < 0) return bad(`header ${csv.header.join(',')}: no id, sku or qty column`);
      const want = NESTED_ORDERS.flatMap((o) => o.lines.map((l) => `${o.id}|${l.sku}|${l.qty}`));
      const got = new Set(csv.rows.map((r) => `${Number(r[id])}|${r[sku]}|${Number(r[qty])}`));
      const missing = want.filter((w) => !got.has(w));
      if (csv.rows.length !== want.length) return bad(`${csv.rows.length} rows, expected ${want.length}`);
      return missing.length ? bad(`${missing.length} order lines missing, e.g. ${missing[0]}`) : ok(`${want.length} order lines`);
    },
  },
  {
    id: 'jsonl-buyers-total',
    kind: 'files',
    requirement:
      'events.jsonl has one event per line from our web shop. How many different users bought something, and what was the total amount of all purchases?',
    inputFiles: eventsJsonl(),
    // distinct users with a purchase event, sum of the purchases' amounts (distinct users over all
    // events is the typical mistake).
    check: async ({ stdout }) =>
      all(expectNumber(stdout, String(BUYERS), [String(ALL_USERS)]), expectNear(stdout, PURCHASE_TOTAL, 0.005)),
  },
  {
    id: 'jsonl-average-purchase',
    kind: 'files',
    requirement: "What's the average purchase amount in events.jsonl? 2 decimals please.",
    inputFiles: eventsJsonl(),
    // the mean over purchase events only; counting the events without an amount as 0 is the mistake.
    check: async ({ stdout }) =>
      expectNumber(stdout, round(PURCHASE_TOTAL / PURCHASES.length, 2).toFixed(2), [round(PURCHASE_TOTAL / SHOP_EVENTS.length, 2).toFixed(2)]),
  },
];
