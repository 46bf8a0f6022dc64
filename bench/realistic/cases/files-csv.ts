/**
 * Requests over delimited files: CSV with and without a header, tab- and semicolon-separated, and
 * two files to join. Expected values are computed here from the generated rows (`../gen/`).
 */
import { artifactNamed, readCsv } from '../files.js';
import { CUSTOMERS, CUSTOMERS_CSV, FLAT_ORDERS, SALE_LINES, SALE_LINES_CSV, SHOP_ORDERS_CSV } from '../gen/shop.js';
import { INVENTORY_TSV, READINGS, READINGS_CSV, SCORES, SCORES_NOHEADER_CSV, STOCK, UMSATZ, UMSATZ_CSV } from '../gen/tables.js';
import { biggestFirst, groupBy, round, sumCents } from '../gen/rng.js';
import { numbersIn, plainGermanAmounts } from '../parse.js';
import { expectEach, expectRows } from '../stdout-checks.js';
import { bad, file, ok, type RealisticRequest } from '../types.js';

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sumBy = <T>(items: readonly T[], key: (t: T) => string, value: (t: T) => number) =>
  new Map([...groupBy(items, key)].map(([k, list]) => [k, sumCents(list.map(value))] as const));

const CATEGORY_SALES = biggestFirst(
  new Map([...groupBy(SALE_LINES, (s) => s.category)].map(([k, list]) => [k, round(list.reduce((n, s) => n + s.unitPrice * s.quantity, 0), 2)] as const)),
);

const SENSOR_MEANS = [...groupBy(READINGS, (r) => r.sensor)].map(([name, list]) => ({ name, value: round(mean(list.map((r) => r.celsius)), 2) }));

const BRANCH_TOTALS = biggestFirst(sumBy(UMSATZ, (u) => u.branch, (u) => u.amount));
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTH_TOTALS = [...sumBy(UMSATZ, (u) => u.date.slice(5, 7), (u) => u.amount)].map(([m, total]) => ({ month: MONTHS[Number(m) - 1]!, total }));

const COUNTRY_OF = new Map(CUSTOMERS.map((c) => [c.id, c.country]));
const SEGMENT_OF = new Map(CUSTOMERS.map((c) => [c.id, c.segment]));
const COUNTRY_TOTALS = sumBy(FLAT_ORDERS, (o) => COUNTRY_OF.get(o.customerId)!, (o) => o.amount);
const SEGMENT_AVERAGES = [...groupBy(FLAT_ORDERS, (o) => SEGMENT_OF.get(o.customerId)!)].map(([name, list]) => ({ name, value: round(sumCents(list.map((o) => o.amount)) / list.length, 2) }));

/** The delimited-file requests, in a fixed order. */
export const CSV_FILE_REQUESTS: RealisticRequest[] = [
  {
    id: 'csv-category-revenue',
    kind: 'files',
    requirement: 'sales_lines.csv has our April sales. Total sales per category (unit price × quantity), largest first, 2 decimals.',
    inputFiles: [file('sales_lines.csv', SALE_LINES_CSV)],
    // sum over rows of unit_price*quantity per category (sum(price) × sum(quantity) is the mistake).
    check: async ({ stdout }) => expectRows(stdout, CATEGORY_SALES.map(([name, value]) => ({ name, value, tol: 0.011 }))),
  },
  {
    id: 'noheader-sensor-means',
    kind: 'files',
    requirement:
      "readings.csv has no header row; the columns are sensor id, timestamp and temperature in °C. What's the average temperature per sensor? 2 decimals.",
    inputFiles: [file('readings.csv', READINGS_CSV)],
    // every row is data; reading the first row as a header drops T-01's first (31.8 °C) reading.
    check: async ({ stdout }) => expectEach(stdout, SENSOR_MEANS.map((r) => ({ ...r, tol: 0.006 }))),
  },
  {
    id: 'noheader-top-scorer',
    kind: 'files',
    requirement: 'who got the highest score in scores.csv? name and score pls',
    inputFiles: [file('scores.csv', SCORES_NOHEADER_CSV)],
    // the file has no header and its first row is the top scorer; taken as a header, the runner-up wins.
    check: async ({ stdout }) => {
      const [top, second] = [...SCORES].sort((a, b) => b.points - a.points);
      return expectRows(stdout, [{ name: top!.name, value: top!.points, tol: 0 }], [second!.name]);
    },
  },
  {
    id: 'tsv-reorder',
    kind: 'files',
    requirement: 'inventory.tsv is our stock list (tab separated). Which items are below their reorder level? Give me the SKUs.',
    inputFiles: [file('inventory.tsv', INVENTORY_TSV)],
    // on_hand < reorder_level as numbers; compared as text, "9" > "10" and "100" < "20".
    check: async ({ stdout }) => {
      const want = STOCK.filter((s) => s.onHand < s.reorderLevel).map((s) => s.sku).sort();
      const got = [...new Set(stdout.match(/INV-\d+/g) ?? [])].sort();
      return got.join(' ') === want.join(' ') ? ok(`${want.length} SKUs`) : bad(`printed ${got.join(' ') || 'no SKU'}, expected ${want.join(' ')}`);
    },
  },
  {
    id: 'semicolon-branch-totals',
    kind: 'files',
    requirement:
      'umsatz.csv is an export from our German office: semicolon separated, numbers like 1.234,56. Total Betrag per Filiale, highest first.',
    inputFiles: [file('umsatz.csv', UMSATZ_CSV)],
    // sum of Betrag per Filiale with "." as thousands and "," as decimal separator; dropping the
    // amounts with a thousands separator (they fail a plain float conversion) is the mistake.
    check: async ({ stdout }) => expectRows(plainGermanAmounts(stdout), BRANCH_TOTALS.map(([name, value]) => ({ name, value, tol: 0.011 }))),
  },
  {
    id: 'semicolon-monthly-file',
    kind: 'files',
    requirement:
      'From umsatz.csv (German format, ; separated) please write monthly_totals.csv with the month name (January, February, …) and the total Betrag of that month, in calendar order.',
    inputFiles: [file('umsatz.csv', UMSATZ_CSV)],
    // sum per month of the dd.mm.yyyy dates, rows January..June; sorting by month name is the mistake.
    check: async ({ artifacts }) => {
      const csvFile = artifactNamed(artifacts, 'monthly_totals.csv');
      if (!csvFile) return bad('no monthly_totals.csv written');
      const { header, rows } = readCsv(csvFile);
      // a file written without a header row starts with January
      const data = /^jan/i.test(header[0] ?? '') ? [header, ...rows] : rows;
      const names = data.map((r) => (r[0] ?? '').slice(0, 3).toLowerCase());
      const want = MONTH_TOTALS.map((m) => m.month.slice(0, 3).toLowerCase());
      if (names.join(' ') !== want.join(' ')) return bad(`months ${names.join(' ')}, expected ${want.join(' ')}`);
      const wrong = MONTH_TOTALS.find((m, i) => !numbersIn(plainGermanAmounts(data[i]!.slice(1).join(' '))).some((n) => Math.abs(n - m.total) <= 0.011));
      return wrong ? bad(`${wrong.month}: expected ${wrong.total}`) : ok(`${want.length} months with their totals`);
    },
  },
  {
    id: 'join-revenue-by-country',
    kind: 'files',
    requirement:
      "shop_orders.csv has our orders and customers.csv our customers (a CRM export; some customers are in it twice). What's the total order amount per country?",
    inputFiles: [file('shop_orders.csv', SHOP_ORDERS_CSV), file('customers.csv', CUSTOMERS_CSV)],
    // each order counted once, under its customer's country; a join on the duplicated rows counts
    // the orders of repeated customers twice.
    check: async ({ stdout }) => expectEach(stdout, [...COUNTRY_TOTALS].map(([name, value]) => ({ name, value, tol: 0.011 }))),
  },
  {
    id: 'join-avg-order-by-segment',
    kind: 'files',
    requirement:
      'Using shop_orders.csv and customers.csv (customers has a segment column, and a few customers appear twice): average order amount for retail vs wholesale customers, 2 decimals.',
    inputFiles: [file('shop_orders.csv', SHOP_ORDERS_CSV), file('customers.csv', CUSTOMERS_CSV)],
    // mean amount over the orders of each segment; the mean of the customers' totals is the mistake.
    check: async ({ stdout }) => expectEach(stdout, SEGMENT_AVERAGES.map((r) => ({ ...r, tol: 0.006 }))),
  },
];
