/**
 * The bot's syncing client: matrix-bot-sdk's {@link MatrixClient} with two changes that make a stop
 * quick and lose nothing (case B3):
 * - the `/sync` long-poll (`GET /_matrix/client/v3/sync`, up to 30 s: https://spec.matrix.org/v1.11/client-server-api/#get_matrixclientv3sync)
 *   is made with `fetch` and an `AbortSignal`, aborted by {@link SyncingClient.stop}, so a stop does
 *   not wait for the homeserver's answer (matrix-bot-sdk's own request cannot be aborted);
 * - the sync token of a batch is saved only after every handler of its events has ended (each
 *   handler's promise is given to {@link SyncingClient.handling}): a process stopped or killed
 *   meanwhile syncs that batch again after a restart, and the pipeline's dedupe (by event id) drops
 *   what it had taken already.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { MatrixClient, type IStorageProvider } from 'matrix-bot-sdk';

/** Longest wait for a batch's handlers before its token is saved anyway, in ms (a handler only admits a request: it takes milliseconds). */
const HANDLERS_WAIT_MS = 30_000;

/** See the module comment. */
export class SyncingClient extends MatrixClient {
  private readonly aborts = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();

  /**
   * @param homeserverUrl the homeserver's base URL
   * @param accessToken the bot's token (sent as a Bearer header, never in a URL)
   * @param storage where the sync token is kept
   */
  constructor(homeserverUrl: string, accessToken: string, storage: IStorageProvider) {
    super(homeserverUrl, accessToken, storage);
    this.persistTokenAfterSync = true; // matrix-bot-sdk's option: the token after its batch is processed
  }

  /** Tracks one event handler: the batch's token waits for it, and {@link SyncingClient.settled} too. Never rejects. */
  handling(handler: Promise<unknown>): void {
    const tracked = handler.catch(() => undefined).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /** Resolves when every tracked handler has ended, or after `maxMs` (a handler that hangs must not stop the sync). */
  async settled(maxMs = HANDLERS_WAIT_MS): Promise<void> {
    const until = Date.now() + maxMs;
    while (this.inFlight.size > 0 && Date.now() < until) await Promise.race([Promise.allSettled([...this.inFlight]), delay(until - Date.now(), undefined, { ref: false })]);
  }

  /** Stops syncing now: the pending `/sync` is aborted. */
  override stop(): void {
    super.stop();
    this.aborts.abort();
  }

  /** Emits a batch's events, then waits for their handlers (the token is saved after this returns). */
  protected override async processSync(raw: unknown, emitFn?: (e: string, ...p: unknown[]) => Promise<unknown>): Promise<unknown> {
    const done = await super.processSync(raw, emitFn);
    await this.settled();
    return done;
  }

  /** One `/sync`, abortable (see the module comment). @throws when the homeserver refuses it or the stop aborted it */
  protected override async doSync(token: string): Promise<unknown> {
    const query = new URLSearchParams({ full_state: 'false', timeout: String(Math.max(0, this.syncingTimeout)) });
    if (token) query.set('since', token);
    const filterId = (this as unknown as { filterId?: string | number }).filterId; // private in matrix-bot-sdk's types
    if (filterId) query.set('filter', String(filterId));
    if (this.syncingPresence) query.set('presence', this.syncingPresence);
    const deadline = AbortSignal.timeout((token ? 40_000 : 600_000) + this.syncingTimeout); // matrix-bot-sdk's request timeouts, beyond the long-poll
    const response = await fetch(`${this.homeserverUrl}/_matrix/client/v3/sync?${query}`, {
      headers: { Authorization: `Bearer ${this.accessToken}` },
      signal: AbortSignal.any([this.aborts.signal, deadline]),
    });
    const body = (await response.json().catch(() => undefined)) as { errcode?: string; error?: string } | undefined;
    if (!response.ok) throw new Error(`/sync: ${response.status} ${body?.errcode ?? ''} ${body?.error ?? ''}`.trim());
    return body;
  }
}
