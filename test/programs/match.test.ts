/**
 * A request in other words finds the team program that answers it: retrieval on the request and
 * its files, then one short confirming call (the real openai client against the fake server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiProvider } from '../../src/llm/openai.js';
import type { ProgramVersion, TeamProgram } from '../../src/history/programs.js';
import { matchProgram, rankPrograms, readConfirmation } from '../../src/programs/match.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';

function program(name: string, request: string, files: string[], parameters: ProgramVersion['parameters'] = []): TeamProgram {
  const version: ProgramVersion = {
    version: 1, code: 'print(1)', request, parameters, runId: 'r1', approvedBy: 'U1', approvedAt: '2026-11-30T09:00:00Z',
    inputs: { files: files.map((f) => ({ name: f, fields: [{ name: 'region', type: 'str' }, { name: 'amount', type: 'float' }] })), sources: [], hosts: [] },
  };
  return { name, conversationId: 'c1', versions: [version] };
}

const revenue = program('revenue-by-region', 'total revenue per region last week from sales.csv', ['sales.csv'], [{ name: 'DAYS', type: 'int', default: 7 }, { name: 'REGION', type: 'str', default: 'all' }]);
const churn = program('churn-count', 'count the churned subscriptions in subscriptions.csv', ['subscriptions.csv']);
const removed: TeamProgram = { ...program('old-revenue', 'total revenue per region', ['sales.csv']), removedAt: '2026-12-01T00:00:00Z', removedBy: 'U2' };

describe('retrieval of team programs', () => {
  it('ranks the program about the same question and file first; a removed one never', () => {
    const ranked = rankPrograms([churn, revenue, removed], { request: 'How much did each region bring in over the past week?', fileNames: ['sales.csv'] });
    expect(ranked.map((r) => r.program.name)).toEqual(['revenue-by-region']);
  });

  it('leaves out a program needing a file the request does not give', () => {
    expect(rankPrograms([revenue], { request: 'revenue per region', fileNames: ['other.csv'] })).toEqual([]);
    expect(rankPrograms([revenue], { request: 'revenue per region', fileNames: [] }).map((r) => r.program.name)).toEqual(['revenue-by-region']);
  });

  it('finds nothing for a request about something else', () => {
    expect(rankPrograms([revenue, churn], { request: 'plot a sine wave', fileNames: [] })).toEqual([]);
  });
});

describe('the confirming reply', () => {
  const params = revenue.versions[0]!.parameters;
  it('reads a match with the parameters it sets, typed; unknown names and wrong types dropped', () => {
    expect(readConfirmation('{"match": true, "params": {"DAYS": 14, "REGION": "EU", "X": 1}}', params)).toEqual({ DAYS: 14, REGION: 'EU' });
    expect(readConfirmation('Sure: {"match": true, "params": {"DAYS": "30"}} done', params)).toEqual({ DAYS: 30 });
    expect(readConfirmation('{"match": true, "params": {"DAYS": 1.5}}', params)).toEqual({});
    expect(readConfirmation('{"match": true}', params)).toEqual({});
  });

  it('"not this", or no JSON at all, is no match (never a guess)', () => {
    expect(readConfirmation('{"match": false}', params)).toBeUndefined();
    expect(readConfirmation('yes, it is the same', params)).toBeUndefined();
    expect(readConfirmation('{"match": tru', params)).toBeUndefined();
  });
});

describe('matchProgram', () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi({ replies: [] });
  });
  afterAll(async () => {
    await fake.close();
  });
  const llm = () => new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 });

  it('puts the best candidate to the LLM and returns it with the values the request sets', async () => {
    fake.enqueue('{"match": true, "params": {"DAYS": 30}}');
    const before = fake.requests.length;
    const match = await matchProgram(llm(), [churn, revenue], { request: 'revenue of each region over the last 30 days', fileNames: ['sales.csv'] });
    expect(match?.program.name).toBe('revenue-by-region');
    expect(match?.params).toEqual({ DAYS: 30 });
    expect(fake.requests.length).toBe(before + 1);
    const asked = JSON.stringify(fake.requests.at(-1)!.messages);
    expect(asked).toContain('revenue-by-region');
    expect(asked).toContain('DAYS (int, default 7)');
  });

  it('no call at all when nothing is like the request; undefined when the LLM says not this', async () => {
    const before = fake.requests.length;
    expect(await matchProgram(llm(), [revenue], { request: 'plot a sine wave', fileNames: [] })).toBeUndefined();
    expect(fake.requests.length).toBe(before);
    fake.enqueue('{"match": false}');
    expect(await matchProgram(llm(), [revenue], { request: 'the revenue per region as a pie chart', fileNames: ['sales.csv'] })).toBeUndefined();
    expect(fake.requests.length).toBe(before + 1);
  });
});
