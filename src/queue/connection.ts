/**
 * Redis connections for the queue (ioredis, the client BullMQ uses). Workers block on Redis and
 * must retry forever (`maxRetriesPerRequest: null`, required by BullMQ's Worker:
 * https://docs.bullmq.io/guide/going-to-production#maxretriesperrequest); an ingress must answer
 * the platform within 3 s, so its commands fail fast instead of waiting for Redis to come back.
 */
import { Redis } from 'ioredis';
import { ConfigError } from '../config/load.js';

/** Longest an ingress waits for Redis per command, in ms (the platform's ack deadline is 3 s). */
export const INGRESS_COMMAND_TIMEOUT_MS = 2000;

/** A connection for a worker (blocking commands, retries forever). */
export function workerConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
}

/** A connection for an ingress (fails a command after {@link INGRESS_COMMAND_TIMEOUT_MS}). */
export function ingressConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: INGRESS_COMMAND_TIMEOUT_MS, connectTimeout: INGRESS_COMMAND_TIMEOUT_MS });
}

/** Closes a connection, waiting for pending replies (quit), or drops it when Redis is gone. */
export async function closeConnection(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}

/**
 * Checks that the queue's Redis answers (PING), failing within about {@link INGRESS_COMMAND_TIMEOUT_MS}.
 * @throws {ConfigError} naming `queue.url` (password hidden) and the reason.
 */
export async function checkRedis(url: string): Promise<void> {
  const redis = ingressConnection(url);
  redis.on('error', () => {
    /* reported below */
  });
  try {
    await redis.ping();
  } catch (err) {
    throw new ConfigError(`cannot reach the queue's Redis at queue.url (${redactedUrl(url)}): ${(err as Error).message}`);
  } finally {
    redis.disconnect();
  }
}

/** A Redis URL without its password, for messages. */
export function redactedUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
