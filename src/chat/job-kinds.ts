/**
 * Typed chat jobs. Each platform declares its job kinds and their payloads as a map, e.g.
 * `{ run: RunPayload; reply: ReplyPayload }` (each kind with its typed payload, checked where a job is made),
 * and a job read back from the queue is dispatched to the handler of its kind. An unknown kind is
 * an {@link UnknownJobKindError}, the same on every platform (never taken for another kind).
 */

/** A platform's job kinds and the payload of each. */
export type JobKindMap = object;

/** The handler of each job kind; `T` is what every handler gets besides the payload. */
export type JobHandlers<M extends JobKindMap, T> = { [K in keyof M & string]: (payload: M[K], tools: T) => Promise<void> };

/** A job of a kind its platform does not have (a newer ingress, a corrupt queue entry). */
export class UnknownJobKindError extends Error {
  override name = 'UnknownJobKindError';
  constructor(
    readonly platform: string,
    readonly kind: string,
    known: string[],
  ) {
    super(`unknown ${platform} job kind "${kind}" (known: ${known.join(', ')})`);
  }
}

/**
 * Runs a job read back from the queue (JSON) with the handler of its kind.
 * @throws {UnknownJobKindError} when the platform has no such kind; what the handler throws.
 */
export async function dispatchJob<M extends JobKindMap, T>(
  platform: string,
  handlers: JobHandlers<M, T>,
  job: { kind: string; payload: unknown },
  tools: T,
): Promise<void> {
  if (!Object.hasOwn(handlers, job.kind)) throw new UnknownJobKindError(platform, job.kind, Object.keys(handlers));
  const handler = handlers[job.kind as keyof M & string] as (payload: unknown, tools: T) => Promise<void>;
  await handler(job.payload, tools);
}
