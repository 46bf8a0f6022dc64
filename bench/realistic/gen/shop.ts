/**
 * Generated shop data: a nested JSON export of orders (records under a top-level key, pretty-printed
 * so its first line is `{`), a flat CSV of sold lines, and two files to join (orders + customers).
 */
import { Rng, pad2 } from './rng.js';

/** One line of a nested order. */
export interface OrderLine {
  sku: string;
  qty: number;
  price: number;
}

/** One order of orders.json. */
export interface NestedOrder {
  id: number;
  placed: string;
  customer: { name: string; country: string };
  lines: OrderLine[];
}

const NAMES = ['Ana', 'Ben', 'Chen', 'Dana', 'Eli', 'Fatima', 'Gus', 'Hana', 'Ivan', 'Jade', 'Kofi', 'Lena', 'Mo', 'Nora', 'Omar', 'Pia'];
const SURNAMES = ['Silva', 'Okafor', 'Wei', 'Levi', 'Novak', 'Zahra', 'Berg', 'Sato', 'Petrov', 'Moreau', 'Mensah', 'Lund'];
/** SKUs with their unit price: cheap ones sell many units, dear ones earn more. */
const SKUS: readonly [string, number][] = [
  ['cable-usb', 4.5], ['mug-logo', 7.9], ['sticker-pack', 2.5], ['notebook-a5', 6.0],
  ['headphones', 59.0], ['keyboard', 89.0], ['backpack', 45.0], ['lamp-desk', 32.5],
];

function nestedOrders(): NestedOrder[] {
  const rng = new Rng(20240501);
  // DE places the most orders, each small; NO fewer orders with more items each
  const countries = ['DE', 'NO', 'SE', 'DK', 'FI', 'NL'];
  const orderWeights = [30, 18, 16, 12, 10, 14];
  const maxQty: Record<string, number> = { DE: 2, NO: 6, SE: 4, DK: 3, FI: 3, NL: 3 };
  const orders: NestedOrder[] = [];
  for (let i = 0; i < 80; i++) {
    const country = rng.weighted(countries, orderWeights);
    const lines: OrderLine[] = [];
    const nLines = rng.int(1, 3);
    for (let l = 0; l < nLines; l++) {
      const [sku, price] = rng.weighted(SKUS, [8, 6, 9, 5, 3, 2, 3, 3]);
      if (lines.some((x) => x.sku === sku)) continue;
      lines.push({ sku, qty: rng.int(1, maxQty[country]!), price });
    }
    const day = 1 + Math.floor((i * 30) / 80);
    orders.push({
      id: 5001 + i,
      placed: `2024-05-${pad2(day)}T${pad2(rng.int(7, 22))}:${pad2(rng.int(0, 59))}:00Z`,
      customer: { name: `${rng.pick(NAMES)} ${rng.pick(SURNAMES)}`, country },
      lines,
    });
  }
  return orders;
}

/** The orders of orders.json. */
export const NESTED_ORDERS: readonly NestedOrder[] = nestedOrders();
/** orders.json: `{"orders": [...]}` pretty-printed with 2 spaces (first line `{`). */
export const ORDERS_JSON = `${JSON.stringify({ exported: '2024-06-01', orders: NESTED_ORDERS }, null, 2)}\n`;

/** One row of sales_lines.csv. */
export interface SaleLine {
  date: string;
  category: string;
  product: string;
  unitPrice: number;
  quantity: number;
}

function saleLines(): SaleLine[] {
  const rng = new Rng(77001);
  const catalog: readonly [string, string, number, number][] = [
    // category, product, lowest price, highest price
    ['Office', 'Paper A4', 3.2, 4.8], ['Office', 'Stapler', 6.5, 9.9], ['Office', 'Pens (10)', 2.1, 3.5],
    ['Electronics', 'Mouse', 14.0, 22.0], ['Electronics', 'Monitor', 139.0, 189.0], ['Electronics', 'USB hub', 18.0, 26.0],
    ['Furniture', 'Desk chair', 89.0, 149.0], ['Furniture', 'Shelf', 39.0, 59.0],
    ['Kitchen', 'Coffee beans 1kg', 11.0, 16.0], ['Kitchen', 'Tea (50)', 3.9, 5.9],
  ];
  const out: SaleLine[] = [];
  for (let i = 0; i < 150; i++) {
    const [category, product, lo, hi] = rng.weighted(catalog, [9, 5, 8, 6, 2, 4, 2, 3, 7, 6]);
    const bulk = category === 'Office' || category === 'Kitchen';
    out.push({
      date: `2024-04-${pad2(1 + Math.floor(i / 5))}`,
      category,
      product,
      unitPrice: rng.cents(lo, hi),
      quantity: bulk ? rng.int(1, 40) : rng.int(1, 4),
    });
  }
  return out;
}

/** The rows of sales_lines.csv. */
export const SALE_LINES: readonly SaleLine[] = saleLines();
/** sales_lines.csv, with a header (no cell needs quoting). */
export const SALE_LINES_CSV = `order_date,category,product,unit_price,quantity\n${SALE_LINES.map(
  (s) => `${s.date},${s.category},${s.product},${s.unitPrice.toFixed(2)},${s.quantity}`,
).join('\n')}\n`;

/** One customer of customers.csv (some appear twice: the CRM export repeats updated rows). */
export interface Customer {
  id: string;
  name: string;
  country: string;
  segment: 'retail' | 'wholesale';
}

/** One order of shop_orders.csv. */
export interface FlatOrder {
  orderId: number;
  customerId: string;
  amount: number;
}

function joinData(): { customers: Customer[]; rows: Customer[]; orders: FlatOrder[] } {
  const rng = new Rng(31337);
  const countries = ['Norway', 'Sweden', 'Germany', 'France', 'Spain'];
  const customers: Customer[] = [];
  for (let i = 1; i <= 24; i++) {
    customers.push({
      id: `C${String(i).padStart(3, '0')}`,
      name: `${NAMES[(i * 7) % NAMES.length]} ${SURNAMES[(i * 5) % SURNAMES.length]}`,
      country: rng.pick(countries),
      segment: rng.chance(0.3) ? 'wholesale' : 'retail',
    });
  }
  // the export repeats 5 customers (same id, same country), the later row after the others
  const rows = [...customers, ...[3, 8, 11, 17, 20].map((i) => customers[i - 1]!)];
  const orders: FlatOrder[] = [];
  for (let i = 0; i < 120; i++) {
    const c = rng.pick(customers);
    const amount = c.segment === 'wholesale' ? rng.cents(150, 900) : rng.cents(12, 140);
    orders.push({ orderId: 9001 + i, customerId: c.id, amount });
  }
  return { customers, rows, orders };
}

const JOIN = joinData();
/** The distinct customers. */
export const CUSTOMERS: readonly Customer[] = JOIN.customers;
/** The orders of shop_orders.csv. */
export const FLAT_ORDERS: readonly FlatOrder[] = JOIN.orders;
/** customers.csv: 29 rows for 24 customers (5 repeated). */
export const CUSTOMERS_CSV = `customer_id,name,country,segment\n${JOIN.rows.map((c) => `${c.id},${c.name},${c.country},${c.segment}`).join('\n')}\n`;
/** shop_orders.csv. */
export const SHOP_ORDERS_CSV = `order_id,customer_id,amount\n${FLAT_ORDERS.map((o) => `${o.orderId},${o.customerId},${o.amount.toFixed(2)}`).join('\n')}\n`;
