/**
 * The generated files of the team set: each seeded (mulberry32, `../realistic/gen/rng.ts`), so the
 * same bytes and the same expected answers on every machine. Each table is built so that the
 * team's reading and the plain reading of its request give different answers.
 */
import { Rng, round } from '../realistic/gen/rng.js';

const csv = (header: string[], rows: (string | number)[][]) => [header.join(','), ...rows.map((r) => r.join(','))].join('\n') + '\n';
const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (iso: string, n: number) => day(new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000));

/** sales.csv: category, units, unit_price, sales (a list-price figure, not units × unit_price). */
export function salesLines(seed = 101) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 40 }, (_, i) => {
    const category = r.pick(['Garden', 'Kitchen', 'Office', 'Toys']);
    const units = r.int(1, 9);
    const unitPrice = r.cents(3, 60);
    return { order: 1001 + i, category, units, unitPrice, sales: round(units * unitPrice * 1.25 + r.int(0, 20), 2) };
  });
  return { rows, csv: csv(['order_id', 'category', 'units', 'unit_price', 'sales'], rows.map((x) => [x.order, x.category, x.units, x.unitPrice.toFixed(2), x.sales.toFixed(2)])) };
}

/** crm_orders.csv: an order repeated once per contact of the customer. */
export function crmOrders(seed = 102) {
  const r = new Rng(seed);
  const rows: { order: string; customer: string; contact: string; amount: number }[] = [];
  for (let i = 0; i < 30; i++) {
    const customer = r.pick(['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli']);
    const amount = r.cents(50, 900);
    const contacts = r.chance(0.45) ? ['buyer', 'finance'] : ['buyer'];
    for (const contact of contacts) rows.push({ order: `SO-${500 + i}`, customer, contact, amount });
  }
  return { rows, csv: csv(['order_id', 'customer', 'contact', 'amount'], rows.map((x) => [x.order, x.customer, x.contact, x.amount.toFixed(2)])) };
}

/** orders.csv: customer, order_date over the first half of 2024 (last date 2024-06-30). */
export function customerOrders(seed = 103) {
  const r = new Rng(seed);
  const customers = Array.from({ length: 24 }, (_, i) => `C${String(i + 1).padStart(3, '0')}`);
  const rows = Array.from({ length: 60 }, () => ({ customer: r.pick(customers), date: addDays('2024-01-01', r.int(0, 181)) }));
  rows.push({ customer: 'C001', date: '2024-06-30' });
  return { rows, csv: csv(['customer', 'order_date'], rows.map((x) => [x.customer, x.date])) };
}

/** sales_2024.csv: date, amount over all of 2024. */
export function yearSales(seed = 104) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 80 }, () => ({ date: addDays('2024-01-01', r.int(0, 365)), amount: r.cents(20, 800) }));
  return { rows, csv: csv(['date', 'amount'], rows.map((x) => [x.date, x.amount.toFixed(2)])) };
}

/** subscriptions.csv: id, plan, status (active, cancelled, lapsed, paused). */
export function subscriptions(seed = 105) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 50 }, (_, i) => ({ id: `S${200 + i}`, plan: r.pick(['basic', 'pro', 'team']), status: r.weighted(['active', 'cancelled', 'lapsed', 'paused'], [5, 2, 2, 1]) }));
  return { rows, csv: csv(['id', 'plan', 'status'], rows.map((x) => [x.id, x.plan, x.status])) };
}

/** deals.csv: deal_id, amount_eur, discount (a fraction). */
export function deals(seed = 106) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 40 }, (_, i) => ({ id: `D-${i + 1}`, amount: r.int(2000, 16000), discount: r.pick([0, 0.05, 0.1, 0.2, 0.3]) }));
  return { rows, csv: csv(['deal_id', 'amount_eur', 'discount'], rows.map((x) => [x.id, x.amount, x.discount])) };
}

/** tickets.csv: ticket_id, opened_on (dates in March 2024). */
export function tickets(seed = 107) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 60 }, (_, i) => ({ id: `T${i + 1}`, date: addDays('2024-03-01', r.int(0, 30)) }));
  return { rows, csv: csv(['ticket_id', 'opened_on'], rows.map((x) => [x.id, x.date])) };
}

/** staff.csv: name, department, type (FTE, contractor), status (active, left). */
export function staff(seed = 108) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 45 }, (_, i) => ({
    name: `P${i + 1}`,
    department: r.pick(['Sales', 'Engineering', 'Support']),
    type: r.weighted(['FTE', 'contractor'], [3, 1]),
    status: r.weighted(['active', 'left'], [4, 1]),
  }));
  return { rows, csv: csv(['name', 'department', 'type', 'status'], rows.map((x) => [x.name, x.department, x.type, x.status])) };
}

/** products.csv: product_line, product, price, cost. */
export function products(seed = 109) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 24 }, (_, i) => {
    const price = r.cents(10, 200);
    return { line: r.pick(['Audio', 'Video', 'Cables']), product: `SKU${i + 1}`, price, cost: round(price * (0.35 + r.next() * 0.5), 2) };
  });
  return { rows, csv: csv(['product_line', 'product', 'price', 'cost'], rows.map((x) => [x.line, x.product, x.price.toFixed(2), x.cost.toFixed(2)])) };
}

/** shipments.csv: shipment_id, promised_date, delivered_date (0–5 days late, or early). */
export function shipments(seed = 110) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 50 }, (_, i) => {
    const promised = addDays('2024-04-01', r.int(0, 40));
    return { id: `SH${i + 1}`, promised, delivered: addDays(promised, r.int(-2, 5)) };
  });
  return { rows, csv: csv(['shipment_id', 'promised_date', 'delivered_date'], rows.map((x) => [x.id, x.promised, x.delivered])) };
}

/** traffic.csv: a row per session: channel, visitor_id, session_id, purchased (0/1). */
export function traffic(seed = 111) {
  const r = new Rng(seed);
  const rows: { channel: string; visitor: string; session: number; purchased: number }[] = [];
  for (let v = 1; v <= 40; v++) {
    const channel = r.pick(['ads', 'email', 'search']);
    const buys = r.chance(0.3);
    const sessions = r.int(1, 4);
    for (let s = 0; s < sessions; s++) rows.push({ channel, visitor: `V${v}`, session: rows.length + 1, purchased: buys && s === sessions - 1 ? 1 : 0 });
  }
  return { rows, csv: csv(['channel', 'visitor_id', 'session_id', 'purchased'], rows.map((x) => [x.channel, x.visitor, x.session, x.purchased])) };
}

/** outbound.csv: product, qty (cases of 12). */
export function outbound(seed = 112) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 30 }, () => ({ product: r.pick(['soap', 'shampoo', 'towels']), qty: r.int(1, 20) }));
  return { rows, csv: csv(['product', 'qty'], rows.map((x) => [x.product, x.qty])) };
}

/** rooms.csv: room, reading (tenths of a degree Celsius). */
export function rooms(seed = 113) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 36 }, () => ({ room: r.pick(['lab', 'office', 'storage']), reading: r.int(150, 260) }));
  return { rows, csv: csv(['room', 'reading'], rows.map((x) => [x.room, x.reading])) };
}

/** region_sales.csv: region, gross, refunds, tax. */
export function regionSales(seed = 114) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 30 }, () => {
    const gross = r.cents(100, 2000);
    return { region: r.pick(['North', 'South', 'West']), gross, refunds: r.cents(0, 150), tax: round(gross * 0.08, 2) };
  });
  return { rows, csv: csv(['region', 'gross', 'refunds', 'tax'], rows.map((x) => [x.region, x.gross.toFixed(2), x.refunds.toFixed(2), x.tax.toFixed(2)])) };
}

/** purchases.csv: customer, date, amount (some customers buy twice on one day). */
export function purchases(seed = 115) {
  const r = new Rng(seed);
  const rows: { customer: string; date: string; amount: number }[] = [];
  for (let c = 1; c <= 30; c++) {
    const n = r.weighted([1, 2, 3], [5, 3, 2]);
    const first = addDays('2024-02-01', r.int(0, 20));
    for (let i = 0; i < n; i++) rows.push({ customer: `K${c}`, date: i > 0 && r.chance(0.6) ? first : addDays(first, i === 0 ? 0 : r.int(1, 9)), amount: r.cents(5, 120) });
  }
  return { rows, csv: csv(['customer', 'date', 'amount'], rows.map((x) => [x.customer, x.date, x.amount.toFixed(2)])) };
}

/** country_orders.csv: country (ISO code), amount. */
export function countryOrders(seed = 116) {
  const r = new Rng(seed);
  const rows = Array.from({ length: 50 }, () => ({ country: r.pick(['DE', 'FR', 'IT', 'ES', 'NL', 'BE', 'AT', 'PL', 'US', 'GB']), amount: r.cents(10, 500) }));
  return { rows, csv: csv(['country', 'amount'], rows.map((x) => [x.country, x.amount.toFixed(2)])) };
}
