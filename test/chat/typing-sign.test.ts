/** The typing sign of a turn: shown at its start, renewed while it works, stopped once at its end, never replacing the progress message. */
import { describe, expect, it } from 'vitest';
import { typingSign } from '../../src/chat/typing-sign.js';
import type { ProgressLine } from '../../src/chat/port.js';

const START: ProgressLine = { step: 'start', turn: 'run', userId: 'U1' };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('typingSign', () => {
  it('shows at the first line, once started, renews while working and hides once at the end', async () => {
    const calls: string[] = [];
    const sign = typingSign({
      show: async () => void calls.push('show'),
      hide: async () => void calls.push('hide'),
      started: async () => void calls.push('read'),
      renewMs: 40,
    });
    expect(await sign.working(START)).toBe(false);
    expect(await sign.working(START)).toBe(false); // a second line does not show again at once
    expect(calls).toEqual(['read', 'show']);
    await wait(130);
    const renewed = calls.filter((c) => c === 'show').length;
    expect(renewed).toBeGreaterThanOrEqual(3);
    await sign.working(undefined);
    await sign.working(undefined); // the end said twice hides once
    await wait(100);
    expect(calls.filter((c) => c === 'show').length).toBe(renewed);
    expect(calls.filter((c) => c === 'hide')).toEqual(['hide']);
    expect(calls.filter((c) => c === 'read')).toEqual(['read']);
  });

  it('hides nothing for a turn that never showed, and lets a platform without hide stop renewing', async () => {
    let shown = 0;
    const sign = typingSign({ show: async () => void shown++, renewMs: 30 });
    await sign.working(undefined);
    expect(shown).toBe(0);
    await sign.working(START);
    await sign.working(undefined);
    await wait(90);
    expect(shown).toBe(1);
  });
});
