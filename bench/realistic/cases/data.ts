/**
 * Data requests (pandas over an attached CSV). Expected values were computed with /usr/bin/python3
 * from the exact bytes in `../inputs.ts`, with csv + decimal (not pandas), and cross-checked by the
 * reference programs in `../reference/`.
 */
import { DAILY_TEMPS_CSV, ORDERS_CSV, SALES_CSV, TICKETS_CSV } from '../inputs.js';
import { expectLabelled, expectNumber, expectNumbersInOrder, expectRows } from '../stdout-checks.js';
import { all, file, type RealisticRequest } from '../types.js';

/** The data requests, in a fixed order. */
export const DATA_REQUESTS: RealisticRequest[] = [
  {
    id: 'revenue-by-region',
    kind: 'data',
    requirement:
      "Here's our sales export (sales.csv). What's the total revenue per region? Revenue is units times unit_price. List the regions with their revenue, biggest first.",
    inputFiles: [file('sales.csv', SALES_CSV)],
    // Decimal sums of units*unit_price: East 3107.56, West 2126.26, North 1886.93, South 1183.53
    // (by units the order would be East, North, West, South).
    check: async ({ stdout }) =>
      expectRows(stdout, [
        { name: 'East', value: 3107.56 },
        { name: 'West', value: 2126.26 },
        { name: 'North', value: 1886.93 },
        { name: 'South', value: 1183.53 },
      ]),
  },
  {
    id: 'march-units',
    kind: 'data',
    requirement: 'From sales.csv: how many units did we sell in March 2024 in total (March 1 to March 31)?',
    inputFiles: [file('sales.csv', SALES_CSV)],
    // rows dated 2024-03-*: 382 units; leaving out March 31 (two sales) gives 335.
    check: async ({ stdout }) => expectNumber(stdout, '382', ['335']),
  },
  {
    id: 'average-order-value',
    kind: 'data',
    requirement: 'orders.csv attached. What is our average order value? Round it to 2 decimals please.',
    inputFiles: [file('orders.csv', ORDERS_CSV)],
    // sum(amount)/41 = 71.677317… → 71.68 (truncating gives 71.67).
    check: async ({ stdout }) => expectNumber(stdout, '71.68', ['71.67']),
  },
  {
    id: 'top-3-customers',
    kind: 'data',
    requirement:
      'Using orders.csv, who are our top 3 customers by total amount spent? Show name and total, highest first. Just the top 3.',
    inputFiles: [file('orders.csv', ORDERS_CSV)],
    // Dana Levi 505.81, Ana Silva 457.44, Ivan Petrov 439.84; 4th Chen Wei 288.73.
    // (by number of orders: Ana, Dana, Chen; by largest single order: Ivan, Dana, Fatima).
    check: async ({ stdout }) =>
      expectRows(
        stdout,
        [
          { name: 'Dana Levi', value: 505.81 },
          { name: 'Ana Silva', value: 457.44 },
          { name: 'Ivan Petrov', value: 439.84 },
        ],
        ['Chen Wei'],
      ),
  },
  {
    id: 'missing-emails',
    kind: 'data',
    requirement:
      'In orders.csv, how many orders have no email address filled in? And how many unique customers (by customer_id) are there? Print both numbers with a label.',
    inputFiles: [file('orders.csv', ORDERS_CSV)],
    // 8 rows with an empty email; 15 distinct customer_id (41 rows).
    check: async ({ stdout }) =>
      all(
        expectLabelled(stdout, /missing|without|no e-?mail|empty|blank|null/i, 8),
        expectLabelled(stdout, /unique|distinct|different/i, 15),
      ),
  },
  {
    id: 'urgent-share',
    kind: 'data',
    requirement:
      "tickets.csv is our support tickets for May. What percentage of all tickets are urgent? Heads up: the priority column is messy, people typed urgent in different ways. Give the percentage with 1 decimal.",
    inputFiles: [file('tickets.csv', TICKETS_CSV)],
    // priority.strip().lower() == 'urgent': 18 of 55 = 32.727…% → 32.7 (exact 'urgent' only: 6 → 10.9).
    check: async ({ stdout }) => expectNumber(stdout, '32.7', ['10.9']),
  },
  {
    id: 'monthly-mean-temperature',
    kind: 'data',
    requirement:
      'temps.csv has a daily temperature reading for the first half of 2024. Give me the average temperature for each month, rounded to 1 decimal, months in calendar order.',
    inputFiles: [file('temps.csv', DAILY_TEMPS_CSV)],
    // Decimal means per month: Jan 4.316, Feb 6.631, Mar 9.639, Apr 15.283, May 20.332, Jun 24.597.
    // Grouping by month name sorts them alphabetically (Apr, Feb, Jan, Jun, Mar, May).
    check: async ({ stdout }) => expectNumbersInOrder(stdout, ['4.3', '6.6', '9.6', '15.3', '20.3', '24.6']),
  },
];
