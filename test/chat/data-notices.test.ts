/** How the terminal and the chats show what the agent looked at in the files, and an agreement step. */
import { describe, expect, it } from 'vitest';
import { agreementNotice, checksNotices, NO_CHECKS_TEXT, profileNotice } from '../../src/chat/verification.js';
import { progressLine } from '../../adapters/cli/render.js';
import { discordThreadMarkup } from '../../adapters/discord/renderer.js';
import type { AgreementEvent, ProfiledEvent } from '../../src/agent/run/index.js';

const profiled: ProfiledEvent = {
  type: 'profiled',
  runId: 'r1',
  files: [
    { name: 'orders.json', summary: 'object with key "orders": 1,204 records {id, customer{country}, lines[{sku, qty}]}' },
    { name: 'notes.txt', summary: 'text, 2 lines ```@everyone' },
  ],
};
const disagreed: AgreementEvent = { type: 'agreement', runId: 'r1', attempt: 1, outcome: 'disagreed', answer: '24', others: ['16', '16'] };

describe('the profiled event', () => {
  it('is one 🔎 line per file in the terminal', () => {
    expect(progressLine(profiled)).toBe(
      '[Agent] 🔎 orders.json: object with key "orders": 1,204 records {id, customer{country}, lines[{sku, qty}]}\n[Agent] 🔎 notes.txt: text, 2 lines ```@everyone',
    );
  });

  it('is a notice whose file text stays in the code block (lines), never in the title', () => {
    const notice = profileNotice(profiled);
    expect(notice.title).toBe('🔎 What the agent looked at in the input files:');
    expect(notice.lines).toEqual(profiled.files.map((f) => `🔎 ${f.name}: ${f.summary}`));
    const discord = discordThreadMarkup.notice(notice).content;
    expect(discord).toContain('🔎 orders.json: object with key "orders": 1,204 records');
    expect(discord).not.toMatch(/(?<!`)```@everyone/); // a fence in file text cannot close the block
  });
});

describe('the agreement event', () => {
  it('says the outcome and shows every answer', () => {
    expect(progressLine(disagreed)).toBe(
      '[Agent] ⚖️ Attempt 1: an independent program printed a different answer: not confirmed. attempt 1: 24 | independent 1: 16 | independent 2: 16',
    );
    expect(agreementNotice({ ...disagreed, outcome: 'agreed', others: ['24'] })).toEqual({
      title: '🤝 Attempt 1: an independent program printed the same answer (no check could pin it).',
      lines: ['attempt 1: 24', 'independent 1: 24'],
    });
  });
});

describe('no checks could be derived (case B5)', () => {
  it('chat and terminal say the same thing, naming the cross-check that may follow, never the exit code alone', () => {
    const event = { type: 'checks' as const, runId: 'r1', asserts: [], dropped: [] };
    const [notice] = checksNotices(event);
    expect(notice!.title).toBe(`🧪 ${NO_CHECKS_TEXT}`);
    expect(progressLine(event)).toBe(`[Agent] ${NO_CHECKS_TEXT}`);
    expect(NO_CHECKS_TEXT).toMatch(/independent program/);
    expect(NO_CHECKS_TEXT).not.toMatch(/judged by (its|the) exit code\.?$/);
  });
});
