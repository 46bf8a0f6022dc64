/**
 * The team set: 16 requests about attached files whose right answer depends on a convention of the
 * team that asks (what "revenue", "active", "Q1", "a big deal", "late" mean to them). Each has the
 * wording of the first request, a paraphrase asked later, the convention in one sentence, how the
 * scripted teammate teaches it (`definition`: says it once with /remember; `example`: approves a
 * run of the first request whose program reads it right — `program`), and a checker of the
 * paraphrase's answer. Expected values are computed here from the generated rows; `naive` is what
 * the plain reading prints, which the checker must refuse (test/bench/team-set.test.ts runs every
 * program in the sandbox and checks both).
 */
import type { InputFile } from '../../src/sandbox/types.js';
import { groupBy, round, sumCents } from '../realistic/gen/rng.js';
import { expectEach, expectNear, expectNumber } from '../realistic/stdout-checks.js';
import type { Verdict } from '../realistic/types.js';
import * as data from './data.js';

/** One case of the set. */
export interface TeamCase {
  id: string;
  /** How the teammate teaches the convention. */
  teach: 'definition' | 'example';
  /** The convention, as the teammate states it (`/remember <definition>`). */
  definition: string;
  /** The first request (for `example`: the request of the approved run). */
  request: string;
  /** The same question asked later, in other words. */
  paraphrase: string;
  files: InputFile[];
  /** A program that reads the request the team's way (the approved run's program, for `example`). */
  program: string;
  /** Decides whether an output answers the paraphrase the team's way. */
  check(stdout: string): Verdict;
  /** What the plain reading prints: the checker refuses it. */
  naive: string;
}

const file = (name: string, content: string): InputFile => ({ name, content: Buffer.from(content) });
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const perGroup = <T>(rows: T[], key: (t: T) => string, value: (list: T[]) => number) => [...groupBy(rows, key)].map(([name, list]) => ({ name, value: value(list) }));
const lines = (rows: { name: string; value: number }[], digits: number) => rows.map((r) => `${r.name}: ${r.value.toFixed(digits)}`).join('\n');
const rowsCheck = (rows: { name: string; value: number }[], tol: number) => (stdout: string) => expectEach(stdout, rows.map((r) => ({ ...r, tol })));
const countCheck = (n: number, naive: number) => (stdout: string) => expectNumber(stdout, String(n), n === naive ? [] : [String(naive)]);

const sales = data.salesLines();
const revenue = perGroup(sales.rows, (x) => x.category, (l) => round(l.reduce((n, x) => n + x.units * x.unitPrice, 0), 2));
const salesCol = perGroup(sales.rows, (x) => x.category, (l) => sumCents(l.map((x) => x.sales)));

const crm = data.crmOrders();
const ordersRight = perGroup(crm.rows, (x) => x.customer, (l) => new Set(l.map((x) => x.order)).size);
const ordersNaive = perGroup(crm.rows, (x) => x.customer, (l) => l.length);

const orders = data.customerOrders();
const activeRight = new Set(orders.rows.filter((x) => x.date >= '2024-04-01').map((x) => x.customer)).size;
const activeNaive = new Set(orders.rows.map((x) => x.customer)).size;

const year = data.yearSales();
const inMonths = (from: string, to: string) => sumCents(year.rows.filter((x) => x.date >= from && x.date <= to).map((x) => x.amount));
const fiscalQ1 = inMonths('2024-04-01', '2024-06-30');
const calendarQ1 = inMonths('2024-01-01', '2024-03-31');

const subs = data.subscriptions();
const churned = subs.rows.filter((x) => x.status === 'cancelled' || x.status === 'lapsed').length;
const cancelled = subs.rows.filter((x) => x.status === 'cancelled').length;

const dealRows = data.deals();
const bigRight = dealRows.rows.filter((x) => x.amount * (1 - x.discount) > 10000).length;
const bigNaive = dealRows.rows.filter((x) => x.amount > 10000).length;

const tix = data.tickets();
const weekday = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay(); // 0 = Sunday
const sunToThu = tix.rows.filter((x) => weekday(x.date) <= 4).length;
const monToFri = tix.rows.filter((x) => weekday(x.date) >= 1 && weekday(x.date) <= 5).length;

const people = data.staff();
const headRight = perGroup(people.rows, (x) => x.department, (l) => l.filter((x) => x.type === 'FTE' && x.status === 'active').length);
const headNaive = perGroup(people.rows, (x) => x.department, (l) => l.length);

const prods = data.products();
const marginRight = perGroup(prods.rows, (x) => x.line, (l) => round(mean(l.map((x) => ((x.price - x.cost) / x.price) * 100)), 1));
const marginNaive = perGroup(prods.rows, (x) => x.line, (l) => round(mean(l.map((x) => x.price - x.cost)), 2));

const ship = data.shipments();
const daysLate = (x: { promised: string; delivered: string }) => (Date.parse(x.delivered) - Date.parse(x.promised)) / 86_400_000;
const lateRight = ship.rows.filter((x) => daysLate(x) > 2).length;
const lateNaive = ship.rows.filter((x) => daysLate(x) > 0).length;

const web = data.traffic();
const convRight = perGroup(web.rows, (x) => x.channel, (l) => round((new Set(l.filter((x) => x.purchased).map((x) => x.visitor)).size / new Set(l.map((x) => x.visitor)).size) * 100, 1));
const convNaive = perGroup(web.rows, (x) => x.channel, (l) => round((l.filter((x) => x.purchased).length / l.length) * 100, 1));

const out = data.outbound();
const unitsRight = perGroup(out.rows, (x) => x.product, (l) => l.reduce((n, x) => n + x.qty, 0) * 12);
const unitsNaive = perGroup(out.rows, (x) => x.product, (l) => l.reduce((n, x) => n + x.qty, 0));

const temps = data.rooms();
const tempRight = perGroup(temps.rows, (x) => x.room, (l) => round(mean(l.map((x) => x.reading)) / 10, 1));
const tempNaive = perGroup(temps.rows, (x) => x.room, (l) => round(mean(l.map((x) => x.reading)), 1));

const regions = data.regionSales();
const netRight = perGroup(regions.rows, (x) => x.region, (l) => sumCents(l.map((x) => round(x.gross - x.refunds - x.tax, 2))));
const netNaive = perGroup(regions.rows, (x) => x.region, (l) => sumCents(l.map((x) => round(x.gross - x.refunds, 2))));

const buys = data.purchases();
const returnRight = [...groupBy(buys.rows, (x) => x.customer).values()].filter((l) => new Set(l.map((x) => x.date)).size >= 2).length;
const returnNaive = [...groupBy(buys.rows, (x) => x.customer).values()].filter((l) => l.length >= 2).length;

const countries = data.countryOrders();
const EU = ['DE', 'FR', 'IT', 'ES', 'NL'];
const euRight = sumCents(countries.rows.filter((x) => EU.includes(x.country)).map((x) => x.amount));
const euNaive = sumCents(countries.rows.filter((x) => [...EU, 'BE', 'AT', 'PL'].includes(x.country)).map((x) => x.amount));

/** The set, in a fixed order (teaching alternates: definition, example, …). */
export const TEAM_CASES: TeamCase[] = [
  {
    id: 'revenue-per-category', teach: 'definition',
    definition: 'revenue = units × unit_price (the sales column is list price before discounts: never use it for revenue)',
    request: 'Total revenue per category in sales.csv, 2 decimals.',
    paraphrase: 'How much money did each category bring in? Use sales.csv, 2 decimals.',
    files: [file('sales.csv', sales.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('sales.csv')\ndf['revenue'] = df['units'] * df['unit_price']\nfor cat, v in df.groupby('category')['revenue'].sum().items():\n    print(f'{cat}: {v:.2f}')\n",
    check: rowsCheck(revenue, 0.011), naive: lines(salesCol, 2),
  },
  {
    id: 'orders-per-customer', teach: 'example',
    definition: 'an order is a distinct order_id: the CRM export repeats an order once per contact',
    request: 'How many orders does each customer have in crm_orders.csv?',
    paraphrase: "Count each customer's orders in crm_orders.csv.",
    files: [file('crm_orders.csv', crm.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('crm_orders.csv')\nfor c, n in df.groupby('customer')['order_id'].nunique().items():\n    print(f'{c}: {n}')\n",
    check: rowsCheck(ordersRight, 0), naive: lines(ordersNaive, 0),
  },
  {
    id: 'active-customers', teach: 'definition',
    definition: 'an active customer ordered in the last 90 days of the data: on or after the last order date in the file minus 90 days',
    request: 'How many active customers are in orders.csv?',
    paraphrase: "What's our number of active customers right now? See orders.csv.",
    files: [file('orders.csv', orders.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('orders.csv', parse_dates=['order_date'])\nsince = df['order_date'].max() - pd.Timedelta(days=90)\nprint('Active customers:', df.loc[df['order_date'] >= since, 'customer'].nunique())\n",
    check: countCheck(activeRight, activeNaive), naive: `Active customers: ${activeNaive}`,
  },
  {
    id: 'fiscal-q1', teach: 'definition',
    definition: 'our fiscal year starts on 1 April: Q1 2024 is April–June 2024, Q2 July–September, Q3 October–December, Q4 January–March 2025',
    request: 'Total sales in Q1 2024 from sales_2024.csv, 2 decimals.',
    paraphrase: 'What did we sell in the first quarter of 2024? sales_2024.csv, 2 decimals.',
    files: [file('sales_2024.csv', year.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('sales_2024.csv', parse_dates=['date'])\nq1 = df[(df['date'] >= '2024-04-01') & (df['date'] <= '2024-06-30')]\nprint(f\"Q1 2024 sales: {q1['amount'].sum():.2f}\")\n",
    check: (s) => expectNear(s, fiscalQ1, 0.011, [calendarQ1]), naive: `Q1 2024 sales: ${calendarQ1.toFixed(2)}`,
  },
  {
    id: 'churned-subscribers', teach: 'example',
    definition: 'churned means status cancelled or lapsed (paused is not churned)',
    request: 'How many subscribers churned? subscriptions.csv',
    paraphrase: 'Give me the churn count from subscriptions.csv.',
    files: [file('subscriptions.csv', subs.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('subscriptions.csv')\nprint('Churned subscribers:', int(df['status'].isin(['cancelled', 'lapsed']).sum()))\n",
    check: countCheck(churned, cancelled), naive: `Churned subscribers: ${cancelled}`,
  },
  {
    id: 'big-deals', teach: 'definition',
    definition: 'a big deal is worth more than 10,000 EUR after its discount: amount_eur × (1 − discount) > 10000',
    request: 'How many big deals are in deals.csv?',
    paraphrase: 'Number of big deals we closed (deals.csv)?',
    files: [file('deals.csv', dealRows.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('deals.csv')\nprint('Big deals:', int((df['amount_eur'] * (1 - df['discount']) > 10000).sum()))\n",
    check: countCheck(bigRight, bigNaive), naive: `Big deals: ${bigNaive}`,
  },
  {
    id: 'business-day-tickets', teach: 'example',
    definition: 'our business days are Sunday to Thursday',
    request: 'How many tickets in tickets.csv were opened on business days?',
    paraphrase: 'Tickets opened on working days: how many? (tickets.csv)',
    files: [file('tickets.csv', tix.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('tickets.csv', parse_dates=['opened_on'])\n# business days: Sunday (6) to Thursday (3) in pandas' Monday=0 numbering\nprint('Tickets on business days:', int(df['opened_on'].dt.dayofweek.isin([6, 0, 1, 2, 3]).sum()))\n",
    check: countCheck(sunToThu, monToFri), naive: `Tickets on business days: ${monToFri}`,
  },
  {
    id: 'headcount', teach: 'definition',
    definition: 'headcount counts active FTE employees only: no contractors and nobody who left',
    request: 'Headcount per department from staff.csv?',
    paraphrase: 'How many people does each department have? staff.csv',
    files: [file('staff.csv', people.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('staff.csv')\nhc = df[(df['type'] == 'FTE') & (df['status'] == 'active')].groupby('department').size()\nfor d in sorted(df['department'].unique()):\n    print(f'{d}: {int(hc.get(d, 0))}')\n",
    check: rowsCheck(headRight, 0), naive: lines(headNaive, 0),
  },
  {
    id: 'margin-per-line', teach: 'example',
    definition: 'margin is (price − cost) / price, in percent',
    request: 'Average margin per product line in products.csv, 1 decimal.',
    paraphrase: 'What margin does each product line make on average? products.csv, 1 decimal.',
    files: [file('products.csv', prods.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('products.csv')\ndf['margin_pct'] = (df['price'] - df['cost']) / df['price'] * 100\nfor line, v in df.groupby('product_line')['margin_pct'].mean().items():\n    print(f'{line}: {v:.1f}%')\n",
    check: rowsCheck(marginRight, 0.051), naive: lines(marginNaive, 2),
  },
  {
    id: 'late-shipments', teach: 'definition',
    definition: 'a shipment is late when it was delivered more than 2 days after its promised date',
    request: 'How many shipments in shipments.csv were late?',
    paraphrase: 'Count the late shipments (shipments.csv).',
    files: [file('shipments.csv', ship.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('shipments.csv', parse_dates=['promised_date', 'delivered_date'])\nlate = (df['delivered_date'] - df['promised_date']).dt.days > 2\nprint('Late shipments:', int(late.sum()))\n",
    check: countCheck(lateRight, lateNaive), naive: `Late shipments: ${lateNaive}`,
  },
  {
    id: 'conversion-per-channel', teach: 'example',
    definition: 'conversion rate = visitors who bought / unique visitors, in percent (not per session)',
    request: 'Conversion rate per channel in traffic.csv, in percent with 1 decimal.',
    paraphrase: 'How well does each channel convert? traffic.csv, percent, 1 decimal.',
    files: [file('traffic.csv', web.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('traffic.csv')\nfor ch, g in df.groupby('channel'):\n    buyers = g.loc[g['purchased'] == 1, 'visitor_id'].nunique()\n    print(f\"{ch}: {buyers / g['visitor_id'].nunique() * 100:.1f}%\")\n",
    check: rowsCheck(convRight, 0.051), naive: lines(convNaive, 1),
  },
  {
    id: 'units-per-product', teach: 'definition',
    definition: 'qty in our warehouse files counts cases of 12 units',
    request: 'Total units shipped per product in outbound.csv?',
    paraphrase: 'How many units of each product went out? outbound.csv',
    files: [file('outbound.csv', out.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('outbound.csv')\nfor p, q in df.groupby('product')['qty'].sum().items():\n    print(f'{p}: {q * 12}')\n",
    check: rowsCheck(unitsRight, 0), naive: lines(unitsNaive, 0),
  },
  {
    id: 'room-temperature', teach: 'example',
    definition: 'sensor readings are in tenths of a degree Celsius (215 means 21.5 °C)',
    request: 'Average temperature per room in rooms.csv, in °C with 1 decimal.',
    paraphrase: "What's the mean temperature of each room? rooms.csv, °C, 1 decimal.",
    files: [file('rooms.csv', temps.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('rooms.csv')\nfor room, v in (df.groupby('room')['reading'].mean() / 10).items():\n    print(f'{room}: {v:.1f} °C')\n",
    check: rowsCheck(tempRight, 0.051), naive: lines(tempNaive, 1),
  },
  {
    id: 'net-sales', teach: 'definition',
    definition: 'net sales = gross − refunds − tax',
    request: 'Net sales per region in region_sales.csv, 2 decimals.',
    paraphrase: 'What are the net sales of each region? region_sales.csv, 2 decimals.',
    files: [file('region_sales.csv', regions.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('region_sales.csv')\ndf['net'] = df['gross'] - df['refunds'] - df['tax']\nfor r, v in df.groupby('region')['net'].sum().items():\n    print(f'{r}: {v:.2f}')\n",
    check: rowsCheck(netRight, 0.011), naive: lines(netNaive, 2),
  },
  {
    id: 'return-customers', teach: 'example',
    definition: 'a return customer bought on at least two different days',
    request: 'How many return customers are in purchases.csv?',
    paraphrase: 'Count our returning customers (purchases.csv).',
    files: [file('purchases.csv', buys.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('purchases.csv')\ndays = df.groupby('customer')['date'].nunique()\nprint('Return customers:', int((days >= 2).sum()))\n",
    check: countCheck(returnRight, returnNaive), naive: `Return customers: ${returnNaive}`,
  },
  {
    id: 'eu-revenue', teach: 'definition',
    definition: 'EU in our reports means DE, FR, IT, ES and NL only',
    request: 'Total EU revenue in country_orders.csv, 2 decimals.',
    paraphrase: 'What did the EU bring in? country_orders.csv, 2 decimals.',
    files: [file('country_orders.csv', countries.csv)],
    program: "import pandas as pd\ndf = pd.read_csv('country_orders.csv')\nprint(f\"EU revenue: {df[df['country'].isin(['DE', 'FR', 'IT', 'ES', 'NL'])]['amount'].sum():.2f}\")\n",
    check: (s) => expectNear(s, euRight, 0.011, [euNaive]), naive: `EU revenue: ${euNaive.toFixed(2)}`,
  },
];
