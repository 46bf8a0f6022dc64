/**
 * What a run is given from its channel's memory (src/memory/recall.ts): the definitions most like
 * its request and files (their columns and values too), within their count and token budget, none
 * about something else; examples most similar to the request and files, within their count and
 * token budget, and none for a request about something else — even on the same file.
 */
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/history/memory.js';
import { chooseMemory, DEFAULT_RECALL_BUDGET, DEFINITION_SHARE, namedColumns, rankDefinitions, rankExamples, type RecallBudget } from '../../src/memory/recall.js';
import { cosineScores, terms } from '../../src/memory/similarity.js';

let n = 0;
const at = '2026-01-01T00:00:00.000Z';
const definition = (text: string): MemoryEntry => ({ id: `m${++n}`, conversationId: 'c', kind: 'definition', text, addedBy: 'U1', addedAt: at, bytes: text.length });
const example = (request: string, inputSummary: string, code = 'print(1)'): MemoryEntry => ({
  id: `m${++n}`, conversationId: 'c', kind: 'example', text: request, addedBy: 'U1', addedAt: at, bytes: 100,
  example: { runId: `r-${n}`, request, inputSummary, code },
});

const SALES = 'sales.csv: CSV: 40 data rows, columns: order_id, category, units, unit_price, sales';
const STAFF = 'staff.csv: CSV: 45 data rows, columns: name, department, type, status';

describe('terms and cosine', () => {
  it('lowercases, drops stop words and plural s, splits snake_case; scores 1 for the same text and 0 for nothing shared', () => {
    expect(terms('Total Revenue per categories in sales.csv')).toEqual(['revenue', 'category', 'sale']);
    // the words every request on a table may use are no topic
    expect(terms('count the rows of each region column')).toEqual(['region']);
    // quarters and halves named in words are the names data gives them
    expect(terms('the first quarter of 2024, and quarter 3, and the second half')).toEqual(['q1', '2024', 'q3', 'h2']);
    expect(terms('unit_price')).toEqual(['unit', 'price']);
    const [same, other] = cosineScores('revenue per category', ['revenue per category', 'headcount of departments']);
    expect(same).toBeCloseTo(1, 6);
    expect(other).toBe(0);
    expect(cosineScores('', ['x'])).toEqual([0]);
  });
});

describe('chooseMemory', () => {
  const q = (request: string, files = '', values = '') => ({ request, files, values });
  const budget = (over: Partial<RecallBudget>): RecallBudget => ({ ...DEFAULT_RECALL_BUDGET, ...over });

  it('gives the definitions like the request, not one about something else (a small model computes every definition it is given)', () => {
    const revenue = definition('revenue = units × unit_price');
    const fiscal = definition('our fiscal year starts in April');
    const netSales = definition('net sales = gross − refunds − tax');
    const all = [fiscal, revenue, netSales];
    expect(chooseMemory(all, q('total revenue per category')).definitions.map((d) => d.id)).toEqual([revenue.id]);
    expect(chooseMemory(all, q('sales in Q1 of the fiscal year')).definitions.map((d) => d.id)).toEqual([fiscal.id]);
    expect(chooseMemory(all, q('plot the temperature per room')).definitions).toEqual([]);
    const removed = { ...revenue, removedAt: at, removedBy: 'U2' };
    expect(chooseMemory([fiscal, removed, netSales], q('total revenue per category')).definitions).toEqual([]);
  });

  it("reads the files' columns and first-row values: a paraphrase that avoids the team's word still gets its definition", () => {
    const headcount = definition('headcount counts active FTE employees only: no contractors and nobody who left');
    const eu = definition('EU in our reports means DE, FR, IT, ES and NL only');
    const revenue = definition('revenue = units × unit_price (the sales column is list price before discounts)');
    const all = [headcount, eu, revenue];
    expect(chooseMemory(all, q('How many people does each department have? staff.csv', STAFF)).definitions).toEqual([]);
    expect(chooseMemory(all, q('How many people does each department have? staff.csv', STAFF, 'P1 Engineering FTE active Support left contractor')).definitions.map((d) => d.id)).toEqual([headcount.id]);
    expect(chooseMemory(all, q('What did the EU bring in? country_orders.csv', 'country_orders.csv: CSV: 50 data rows, columns: country, amount', 'GB ES PL NL')).definitions.map((d) => d.id)).toEqual([eu.id]);
    expect(chooseMemory(all, q('How much money did each category bring in? sales.csv', SALES)).definitions.map((d) => d.id)).toEqual([revenue.id]);
  });

  it('gives a definition alone in its channel when it shares two terms with the request, its files or their values, whatever its cosine', () => {
    const fiscal = definition('our fiscal year starts on 1 April: Q1 2024 is April–June 2024, Q2 July–September');
    const headcount = definition('headcount counts active FTE employees only: no contractors and nobody who left');
    expect(chooseMemory([fiscal], q('What did we sell in the first quarter of 2024? sales_2024.csv', 'sales_2024.csv: CSV: 120 data rows, columns: date, amount')).definitions.map((d) => d.id)).toEqual([fiscal.id]);
    expect(chooseMemory([headcount], q('How many people does each department have? staff.csv', STAFF, 'P1 Engineering FTE active Support left contractor')).definitions.map((d) => d.id)).toEqual([headcount.id]);
    // one shared term (a status) is chance, not a topic; nothing shared, nothing given
    expect(chooseMemory([fiscal], q('plot the temperatures per room')).definitions).toEqual([]);
    expect(chooseMemory([headcount], q('how many subscriptions are still active? subscriptions.csv')).definitions).toEqual([]);
  });

  it('leaves out a definition that names only columns the files do not have (it is about other files): joined words, a formula', () => {
    const revenue = definition('revenue = units × unit_price (the sales column is list price before discounts)');
    const fiscal = definition('our fiscal year starts on 1 April: Q1 2024 is April–June 2024');
    const request = 'What did we sell in the first quarter of 2024? sales_2024.csv';
    const yearFile = 'sales_2024.csv: CSV: 60 data rows, columns: date, amount';
    expect(rankDefinitions([revenue, fiscal], q(request, yearFile)).map((x) => x.entry.id)).toContain(revenue.id);
    const ranked = rankDefinitions([revenue, fiscal], { ...q(request, yearFile), columns: ['date', 'amount'] });
    expect(ranked.map((x) => x.entry.id)).toEqual([fiscal.id]);
    // one of its columns is enough, in any case; a definition naming no column is never left out for it
    expect(rankDefinitions([revenue], { ...q('revenue per category', SALES), columns: ['Unit_Price', 'category'] }).map((x) => x.entry.id)).toEqual([revenue.id]);
    expect(namedColumns(revenue.text)).toEqual(['unit_price', 'units']);
    expect(namedColumns(fiscal.text)).toEqual([]);
    // a formula's one-word operands are columns too; a formula with a phrase in it names none
    expect(namedColumns('net sales = gross − refunds − tax')).toEqual(['gross', 'refunds', 'tax']);
    expect(namedColumns('conversion rate = visitors who bought / unique visitors')).toEqual([]);
    expect(namedColumns('EU in our reports means DE, FR, IT, ES and NL only')).toEqual([]);
    const netSales = definition('net sales = gross − refunds − tax');
    expect(rankDefinitions([netSales, fiscal], { ...q(request, yearFile), columns: ['date', 'amount'] }).map((x) => x.entry.id)).toEqual([fiscal.id]);
    expect(rankDefinitions([netSales], { ...q('net sales per region', 'region_sales.csv: columns: region, gross, refunds, tax'), columns: ['region', 'gross', 'refunds', 'tax'] }).map((x) => x.entry.id)).toEqual([netSales.id]);
  });

  it('gives those that score near the best (ties: the newest first), within the count and the token budget', () => {
    const tax = definition('refunds per order exclude tax');
    const shipping = definition('refunds per order exclude shipping');
    const fees = definition('refunds per order exclude fees');
    const request = q('total refunds per order');
    expect(chooseMemory([tax, shipping, fees], request).definitions.map((d) => d.id)).toEqual([fees.id, shipping.id, tax.id]);
    expect(chooseMemory([tax, shipping, fees], request, budget({ maxDefinitions: 1 })).definitions.map((d) => d.id)).toEqual([fees.id]);
    const tokens = (d: MemoryEntry) => Math.ceil(d.text.length / 4) + 2;
    expect(chooseMemory([tax, shipping, fees], request, budget({ definitionTokens: tokens(fees) + tokens(shipping) })).definitions.map((d) => d.id)).toEqual([fees.id, shipping.id]);
    // one that does not fit is passed over for a shorter one after it
    expect(chooseMemory([tax, shipping, fees], request, budget({ definitionTokens: tokens(fees) + tokens(tax) })).definitions.map((d) => d.id)).toEqual([fees.id, tax.id]);
    expect(chooseMemory([tax, shipping, fees], request, budget({ definitionTokens: tokens(fees) - 1 })).definitions).toEqual([]);
    // one that shares a word but scores far below the best is left out
    const revenue = definition('revenue = units × unit_price (the sales column is list price before discounts)');
    const netSales = definition('net sales = gross − refunds − tax');
    const money = q('How much money did each category bring in? sales.csv', SALES);
    const channel = [netSales, revenue, definition('our fiscal year starts in April'), definition('headcount counts active FTE employees only')];
    const ranked = rankDefinitions(channel, money);
    expect(ranked.map((x) => x.entry.id)).toEqual([revenue.id, netSales.id]);
    expect(ranked[1]!.score).toBeLessThan(DEFINITION_SHARE * ranked[0]!.score);
    expect(chooseMemory(channel, money).definitions.map((d) => d.id)).toEqual([revenue.id]);
  });

  it('gives the example of a paraphrase, not one about something else on the same file, within the count and token budget', () => {
    const revenue = example('Total revenue per category in sales.csv, 2 decimals.', SALES);
    const orders = example('How many orders per customer in sales.csv?', SALES);
    const staff = example('Headcount per department from staff.csv?', STAFF);
    const all = [revenue, orders, staff];
    expect(chooseMemory(all, q('How much revenue did each category bring in? sales.csv', SALES)).examples.map((x) => x.id)).toEqual([revenue.id]);
    expect(chooseMemory(all, q('Plot the units sold per day from sales.csv', SALES)).examples).toEqual([]);
    expect(chooseMemory(all, q('Average temperature per room, rooms.csv', 'rooms.csv: CSV: 36 data rows, columns: room, reading')).examples).toEqual([]);
    const twin = example('Total revenue per category in sales.csv, rounded.', SALES);
    expect(chooseMemory([...all, twin], q('Total revenue per category? sales.csv', SALES)).examples.map((x) => x.id).sort()).toEqual([revenue.id, twin.id].sort());
    expect(chooseMemory([...all, twin], q('Total revenue per category? sales.csv', SALES), budget({ maxExamples: 1 })).examples).toHaveLength(1);
    const big = example('Total revenue per category in sales.csv', SALES, 'x = 1\n'.repeat(2000));
    expect(chooseMemory([big], q('Total revenue per category in sales.csv', SALES)).examples).toEqual([]); // over the token budget
    expect(rankExamples([big], 'Total revenue per category in sales.csv', SALES)).toHaveLength(1);
  });
});
