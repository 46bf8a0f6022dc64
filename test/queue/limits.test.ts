/** Global job limits on a real redis-server, through two connections (as two processes would). */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisJobLimits } from '../../src/queue/redis-job-limits.js';
import { startRedis, type TestServer } from '../helpers/servers.js';

let server: TestServer;
let a: Redis;
let b: Redis;
beforeAll(async () => {
  server = await startRedis();
  a = new Redis(server.url);
  b = new Redis(server.url);
});
afterAll(async () => {
  a?.disconnect();
  b?.disconnect();
  await server?.stop();
});

describe('RedisJobLimits', () => {
  it('admits one job per user among concurrent requests from two processes', async () => {
    const SCOPE = 'per-user';
    const limitsA = new RedisJobLimits(a, SCOPE, 10, 60_000);
    const limitsB = new RedisJobLimits(b, SCOPE, 10, 60_000);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? limitsA : limitsB).admit({ jobId: `u1-${i}`, channel: 'c1', user: 'u1' })),
    );
    expect(results.filter((r) => r.accepted)).toHaveLength(1);
    expect(results.filter((r) => !r.accepted && r.reason === 'user_busy')).toHaveLength(9);
  });

  it('bounds a channel, counts the jobs ahead, and frees slots on release', async () => {
    const SCOPE = 'per-channel';
    const limitsA = new RedisJobLimits(a, SCOPE, 3, 60_000);
    const limitsB = new RedisJobLimits(b, SCOPE, 3, 60_000);
    const keys = Array.from({ length: 5 }, (_, i) => ({ jobId: `c2-${i}`, channel: 'c2', user: `c2-user${i}` }));
    const results = await Promise.all(keys.map((k, i) => (i % 2 ? limitsA : limitsB).admit(k)));
    const accepted = results.filter((r) => r.accepted);
    expect(accepted).toHaveLength(3);
    expect(results.filter((r) => !r.accepted && r.reason === 'queue_full')).toHaveLength(2);
    // "ahead" is the number of admitted, not yet started jobs before each one: 0, 1, 2 in some order
    expect(accepted.map((r) => (r.accepted ? r.ahead : -1)).sort()).toEqual([0, 1, 2]);

    const admittedKeys = keys.filter((_, i) => results[i]!.accepted);
    await limitsA.started(admittedKeys[0]!.jobId);
    await limitsA.started(admittedKeys[1]!.jobId);
    // the channel is still full (started jobs still run), but only one job waits
    expect(await limitsB.admit({ jobId: 'c2-x', channel: 'c2', user: 'c2-x' })).toEqual({ accepted: false, reason: 'queue_full' });
    await limitsB.release(admittedKeys[0]!);
    expect(await limitsB.admit({ jobId: 'c2-y', channel: 'c2', user: 'c2-y' })).toEqual({ accepted: true, ahead: 1 });
    // the released user may start another job; a refused one was never recorded
    expect((await limitsA.admit({ jobId: 'c2-z', channel: 'other', user: admittedKeys[0]!.user })).accepted).toBe(true);
  });

  it('stops counting an admission that was never released after staleMs (its process died)', async () => {
    const SCOPE = 'stale';
    const limits = new RedisJobLimits(a, SCOPE, 1, 300);
    expect((await limits.admit({ jobId: 's1', channel: 'c3', user: 's-user' })).accepted).toBe(true);
    expect(await limits.admit({ jobId: 's2', channel: 'c3', user: 's-user' })).toEqual({ accepted: false, reason: 'user_busy' });
    await new Promise((r) => setTimeout(r, 400));
    expect(await limits.admit({ jobId: 's3', channel: 'c3', user: 's-user' })).toEqual({ accepted: true, ahead: 0 });
  });

  it('admits a job on an existing run (waitsForUser) despite its busy user, without taking the user; the channel cap still holds', async () => {
    const SCOPE = 'waits';
    const limits = new RedisJobLimits(a, SCOPE, 2, 60_000);
    expect(await limits.admit({ jobId: 'w1', channel: 'c4', user: 'w-user' })).toEqual({ accepted: true, ahead: 0 });
    expect(await limits.admit({ jobId: 'w2', channel: 'c4', user: 'w-user', waitsForUser: true })).toEqual({ accepted: true, ahead: 1 });
    expect(await limits.admit({ jobId: 'w3', channel: 'c4', user: 'w-user', waitsForUser: true })).toEqual({ accepted: false, reason: 'queue_full' });
    // the reply did not take the user: once the run is released, the user may start a new job
    await limits.release({ jobId: 'w1', channel: 'c4', user: 'w-user' });
    expect(await limits.admit({ jobId: 'w4', channel: 'other', user: 'w-user' })).toEqual({ accepted: true, ahead: 1 }); // w2 waits before it
  });
});
