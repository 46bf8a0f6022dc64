/** Values kept for a while (src/chat/expiring-map.ts): returned until they expire, taken once. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExpiringMap } from '../../src/chat/expiring-map.js';

describe('ExpiringMap', () => {
  afterEach(() => void vi.useRealTimers());

  it('returns a value until ttlMs after it was set; take returns it once', () => {
    vi.useFakeTimers({ now: 0 });
    const map = new ExpiringMap<string, number>(1000);
    map.set('a', 1);
    vi.setSystemTime(999);
    expect(map.get('a')).toBe(1);
    expect(map.take('a')).toBe(1);
    expect(map.get('a')).toBeUndefined();
    map.set('b', 2);
    vi.setSystemTime(999 + 1000);
    expect(map.get('b')).toBeUndefined();
    expect(map.take('b')).toBeUndefined();
    map.set('b', 3); // set again: kept anew
    expect(map.get('b')).toBe(3);
  });
});
