/** Which slot a request gets: longest shared prefix, else the least recently used; at most `parallel` at once. */
import { describe, expect, it } from 'vitest';
import { MIN_REUSE_TOKENS, SlotPool, commonPrefix } from '../../src/llm/local-slots.js';

type Slot = { name: string; contextTokens: number[] };
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('SlotPool', () => {
  it('gives the slot holding the longest start of the prompt', async () => {
    const a = { name: 'a', contextTokens: range(0, 100) };
    const b = { name: 'b', contextTokens: range(0, 50) };
    const pool = new SlotPool<Slot>([b, a], 1);
    const lease = await pool.acquire(range(0, 120));
    expect(lease).toEqual({ slot: a, reusedTokens: 100 });
  });

  it('below the minimum shared prefix, takes the least recently used slot instead of evicting a chat', async () => {
    const template = range(0, 3); // every chat starts with the template's tokens
    const run = { name: 'run', contextTokens: [...template, ...range(100, 200)] };
    const empty = { name: 'empty', contextTokens: [] };
    const pool = new SlotPool<Slot>([run, empty], 1);
    pool.release((await pool.acquire(run.contextTokens)).slot); // the run's attempt used it
    const lease = await pool.acquire([...template, ...range(500, 40)]);
    expect(lease.slot).toBe(empty);
    expect(commonPrefix(run.contextTokens, [...template, 9])).toBeLessThan(MIN_REUSE_TOKENS);
  });

  it('serves at most `parallel` at once, the others in arrival order, and a waiting request can be cancelled', async () => {
    const slots = [0, 1, 2].map((i) => ({ name: String(i), contextTokens: [] as number[] }));
    const pool = new SlotPool<Slot>(slots, 2);
    const first = await pool.acquire([1]);
    const second = await pool.acquire([2]);
    expect(pool.active).toBe(2);
    const order: string[] = [];
    const third = pool.acquire([3]).then((l) => (order.push('third'), l));
    const controller = new AbortController();
    const cancelled = pool.acquire([4], controller.signal);
    const fourth = pool.acquire([5]).then((l) => (order.push('fourth'), l));
    controller.abort(new Error('stop'));
    await expect(cancelled).rejects.toThrow('stop');
    await Promise.resolve();
    expect(order).toEqual([]);
    pool.release(first.slot);
    await third;
    pool.release(second.slot);
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
  });
});
