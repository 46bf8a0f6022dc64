/**
 * What a run is given from its channel's memory (src/memory/recall.ts): definitions within their
 * token budget (the newest kept when they do not all fit, given in the order they were added),
 * examples most similar to the request and files, within their count and token budget, and none
 * for a request about something else — even on the same file.
 */
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/history/memory.js';
import { chooseMemory, rankExamples } from '../../src/memory/recall.js';
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
    expect(terms('Total Revenue per categories in sales.csv')).toEqual(['total', 'revenue', 'category', 'sale']);
    expect(terms('unit_price')).toEqual(['unit', 'price']);
    const [same, other] = cosineScores('revenue per category', ['revenue per category', 'headcount of departments']);
    expect(same).toBeCloseTo(1, 6);
    expect(other).toBe(0);
    expect(cosineScores('', ['x'])).toEqual([0]);
  });
});

describe('chooseMemory', () => {
  it('gives every definition that fits the budget (the newest when they do not all fit), the most relevant to the request first', () => {
    const defs = [definition('a'.repeat(40)), definition('b'.repeat(40)), definition('c'.repeat(40))];
    expect(chooseMemory(defs, 'x', '').definitions.map((d) => d.text[0])).toEqual(['a', 'b', 'c']);
    // 40 characters ≈ 10 tokens + 2 each: a budget of 25 keeps the two newest
    const tight = chooseMemory(defs, 'x', '', { definitionTokens: 25, exampleTokens: 1500, maxExamples: 2 });
    expect(tight.definitions.map((d) => d.text[0])).toEqual(['b', 'c']);
    const revenue = definition('revenue = units × unit_price');
    const fiscal = definition('our fiscal year starts in April');
    expect(chooseMemory([fiscal, revenue], 'total revenue per category', '').definitions.map((d) => d.id)).toEqual([revenue.id, fiscal.id]);
    expect(chooseMemory([fiscal, revenue], 'sales in Q1 of the fiscal year', '').definitions.map((d) => d.id)).toEqual([fiscal.id, revenue.id]);
    const removed = { ...defs[2]!, removedAt: at, removedBy: 'U2' };
    expect(chooseMemory([defs[0]!, removed], 'x', '').definitions.map((d) => d.text[0])).toEqual(['a']);
  });

  it('gives the example of a paraphrase, not one about something else on the same file, within the count and token budget', () => {
    const revenue = example('Total revenue per category in sales.csv, 2 decimals.', SALES);
    const orders = example('How many orders per customer in sales.csv?', SALES);
    const staff = example('Headcount per department from staff.csv?', STAFF);
    const all = [revenue, orders, staff];
    expect(chooseMemory(all, 'How much revenue did each category bring in? sales.csv', SALES).examples.map((x) => x.id)).toEqual([revenue.id]);
    expect(chooseMemory(all, 'Plot the units sold per day from sales.csv', SALES).examples).toEqual([]);
    expect(chooseMemory(all, 'Average temperature per room, rooms.csv', 'rooms.csv: CSV: 36 data rows, columns: room, reading').examples).toEqual([]);
    const twin = example('Total revenue per category in sales.csv, rounded.', SALES);
    expect(chooseMemory([...all, twin], 'Total revenue per category? sales.csv', SALES).examples.map((x) => x.id).sort()).toEqual([revenue.id, twin.id].sort());
    expect(chooseMemory([...all, twin], 'Total revenue per category? sales.csv', SALES, { definitionTokens: 500, exampleTokens: 1500, maxExamples: 1 }).examples).toHaveLength(1);
    const big = example('Total revenue per category in sales.csv', SALES, 'x = 1\n'.repeat(2000));
    expect(chooseMemory([big], 'Total revenue per category in sales.csv', SALES).examples).toEqual([]); // over the token budget
    expect(rankExamples([big], 'Total revenue per category in sales.csv', SALES)).toHaveLength(1);
  });
});
