/**
 * The Socket Mode half of the fake Slack (https://api.slack.com/apis/socket-mode, implementation
 * guide https://api.slack.com/apis/connections/socket-implement), on the fake Web API's HTTP server
 * (test/fakes/slack-api.ts), speaking what `@slack/socket-mode` 2.x (Bolt's SocketModeReceiver)
 * speaks:
 *
 * - `apps.connections.open` (answered by the Web API fake with the app-level token) returns
 *   {@link FakeSlackSocket.openUrl}: `ws://127.0.0.1:PORT/link/?ticket=…&app_id=A0001`. A ticket
 *   opens one connection; an unknown or used ticket is refused with HTTP 401 at the upgrade.
 * - On connect the fake sends `{"type":"hello","num_connections":n,"debug_info":{…},"connection_info":{"app_id":…}}`;
 *   the client counts as connected only after it.
 * - Envelopes: `{"envelope_id","type":"slash_commands"|"events_api","payload",
 *   "accepts_response_payload", "retry_attempt", "retry_reason"}` (the last two for events). The
 *   client acks each with `{"envelope_id","payload"}` on the socket; every ack is recorded with the
 *   time since its envelope was sent.
 * - `{"type":"disconnect","reason":"refresh_requested","debug_info":{…}}` asks the client to close and
 *   reconnect (calling `apps.connections.open` again). Slack closes the socket itself some seconds
 *   later; so does the fake, after `disconnectGraceMs`, if the client has not.
 * - Ping/pong: the client pings every few seconds and expects pongs (the `ws` server answers them);
 *   with `pingIntervalMs` the fake also pings the client, as Slack does.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { eventCallback, slashPayload, type EventCallbackOptions, type SlashFields } from './slack-payloads.js';

/** One WebSocket connection a client opened. */
export interface SocketConnection {
  /** 1-based, in order of opening. */
  id: number;
  /** The `apps.connections.open` ticket it used. */
  ticket: string;
  /** `Date.now()` when it opened. */
  openedAt: number;
  /** `Date.now()` when it closed (either side); undefined while open. */
  closedAt?: number;
  /** WebSocket close code (1000 when the client closed normally, 1006 when it was terminated). */
  closeCode?: number;
  /** Pings the client sent (each answered with a pong). */
  pings: number;
  /** Pongs the client sent to the fake's pings. */
  pongs: number;
  /** `reason` of the `disconnect` message sent on it, if any. */
  disconnectReason?: string;
}

/** An envelope as sent to the client (https://api.slack.com/apis/connections/socket-implement#events). */
export interface SocketEnvelope {
  envelope_id: string;
  type: 'slash_commands' | 'events_api' | 'interactive';
  payload: Record<string, unknown>;
  accepts_response_payload: boolean;
  retry_attempt?: number;
  retry_reason?: string;
}

/** An acknowledgement the client sent (`{"envelope_id","payload"}`). */
export interface SocketAck {
  envelopeId: string;
  /** The ack's `payload`: `{}` for an empty ack, the response (e.g. an ephemeral message) otherwise. */
  payload: Record<string, unknown> | undefined;
  /** Id of the connection it came on. */
  connection: number;
  /** `Date.now()` when it arrived. */
  at: number;
  /** Milliseconds from sending the envelope to this ack; undefined for an envelope the fake never sent. */
  ms: number | undefined;
}

/** Options of {@link FakeSlackSocket}. */
export interface FakeSlackSocketOptions {
  /** `connection_info.app_id` of `hello`; default `A0001`. */
  appId?: string;
  /** How long {@link FakeSlackSocket.send} waits for an ack, in ms; default 10 000. */
  ackTimeoutMs?: number;
  /** After a `disconnect` message, the fake terminates the connection if the client has not closed it within this many ms; default 10 000. */
  disconnectGraceMs?: number;
  /** Ping the client this often, in ms; default 0 = never (the client then only pings the fake). */
  pingIntervalMs?: number;
}

/** Options of {@link FakeSlackSocket.event}. */
export interface SocketEventOptions extends EventCallbackOptions {
  /** `retry_attempt` (0 for a first delivery). */
  retryAttempt?: number;
  /** `retry_reason`; default `timeout` for a retry, '' for a first delivery. */
  retryReason?: string;
}

/** Options of {@link FakeSlackSocket.send}. */
export interface SendOptions {
  /** Envelope id; default a fresh UUID. */
  envelopeId?: string;
  acceptsResponsePayload?: boolean;
  retryAttempt?: number;
  retryReason?: string;
}

interface Live {
  info: SocketConnection;
  ws: WebSocket;
  helloSent: boolean;
}

/** The fake Socket Mode endpoint, attached to an HTTP server's `upgrade` requests under `/link/`. */
export class FakeSlackSocket {
  readonly connections: SocketConnection[] = [];
  readonly envelopes: SocketEnvelope[] = [];
  readonly acks: SocketAck[] = [];
  /** Upgrade requests refused (unknown or reused ticket, wrong path). */
  refused = 0;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private readonly live = new Map<number, Live>();
  private readonly sentAt = new Map<string, number>();
  private readonly waiters = new Map<string, (ack: SocketAck) => void>();
  private readonly appId: string;
  private readonly ackTimeoutMs: number;
  private readonly disconnectGraceMs: number;
  private readonly pingIntervalMs: number;
  private readonly timers = new Set<NodeJS.Timeout>();

  /**
   * @param server the HTTP server to take WebSocket upgrades from
   * @param origin its origin, e.g. `http://127.0.0.1:1234` (the URL scheme becomes `ws:`)
   */
  constructor(server: http.Server, private readonly origin: string, options: FakeSlackSocketOptions = {}) {
    this.appId = options.appId ?? 'A0001';
    this.ackTimeoutMs = options.ackTimeoutMs ?? 10_000;
    this.disconnectGraceMs = options.disconnectGraceMs ?? 10_000;
    this.pingIntervalMs = options.pingIntervalMs ?? 0;
    server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
  }

  /** A one-use WebSocket URL, as `apps.connections.open` returns it. */
  openUrl(): string {
    const ticket = randomUUID();
    this.tickets.add(ticket);
    return `${this.origin.replace(/^http/, 'ws')}/link/?ticket=${ticket}&app_id=${this.appId}`;
  }

  /** Connections open now (hello sent, not closed). */
  openConnections(): SocketConnection[] {
    return [...this.live.values()].filter((l) => l.helloSent).map((l) => l.info);
  }

  /**
   * Resolves with the `count`-th connection (1-based) once it is greeted and still open.
   * @throws after `timeoutMs` (default 15 000) without it.
   */
  async waitForConnection(count = 1, timeoutMs = 15_000): Promise<SocketConnection> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const live = this.live.get(count);
      if (live?.helloSent) return live.info;
      if (Date.now() > deadline) throw new Error(`fake Slack socket: no connection #${count} within ${timeoutMs} ms (${this.connections.length} so far)`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * Sends an envelope on the newest open connection and resolves with the client's ack.
   * @throws when no connection is open, or no ack arrives within `ackTimeoutMs`.
   */
  send(type: SocketEnvelope['type'], payload: Record<string, unknown>, options: SendOptions = {}): Promise<SocketAck> {
    const target = [...this.live.values()].filter((l) => l.helloSent).at(-1);
    if (!target) return Promise.reject(new Error('fake Slack socket: no open connection to send on'));
    const envelope: SocketEnvelope = {
      envelope_id: options.envelopeId ?? randomUUID(),
      type,
      payload,
      accepts_response_payload: options.acceptsResponsePayload ?? type !== 'events_api',
      ...(options.retryAttempt !== undefined ? { retry_attempt: options.retryAttempt, retry_reason: options.retryReason ?? '' } : {}),
    };
    const id = envelope.envelope_id;
    return new Promise<SocketAck>((resolve, reject) => {
      const timer = this.timer(() => {
        this.waiters.delete(id);
        reject(new Error(`fake Slack socket: no ack for ${type} envelope ${id} within ${this.ackTimeoutMs} ms`));
      }, this.ackTimeoutMs);
      this.waiters.set(id, (ack) => {
        this.clear(timer);
        resolve(ack);
      });
      this.envelopes.push(envelope);
      this.sentAt.set(id, Date.now());
      target.ws.send(JSON.stringify(envelope));
    });
  }

  /** Delivers a slash command (`slash_commands`, accepts a response payload); resolves with its ack. */
  slashCommand(fields: SlashFields): Promise<SocketAck> {
    return this.send('slash_commands', slashPayload(fields), { acceptsResponsePayload: true });
  }

  /** Delivers an Events API `event_callback` wrapping `event` (`events_api`); resolves with its ack. */
  event(event: Record<string, unknown>, options: SocketEventOptions = {}): Promise<SocketAck> {
    return this.send('events_api', eventCallback(event, options), {
      acceptsResponsePayload: false,
      retryAttempt: options.retryAttempt ?? 0,
      retryReason: options.retryReason ?? (options.retryAttempt ? 'timeout' : ''),
    });
  }

  /**
   * Sends `{"type":"disconnect","reason":…}` on the newest open connection; terminates it after
   * `disconnectGraceMs` if the client has not closed it. Returns that connection.
   * @throws when no connection is open.
   */
  requestDisconnect(reason: 'refresh_requested' | 'warning' | 'too_many_websockets' | 'link_disabled' = 'refresh_requested'): SocketConnection {
    const target = [...this.live.values()].filter((l) => l.helloSent).at(-1);
    if (!target) throw new Error('fake Slack socket: no open connection to disconnect');
    target.info.disconnectReason = reason;
    target.ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'fake-applink-1' } }));
    this.timer(() => {
      if (this.live.has(target.info.id)) target.ws.terminate();
    }, this.disconnectGraceMs);
    return target.info;
  }

  /** Terminates every connection and stops taking new ones. */
  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const l of this.live.values()) l.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', this.origin);
    const ticket = url.searchParams.get('ticket') ?? '';
    if (url.pathname !== '/link/' || !this.tickets.delete(ticket)) {
      this.refused += 1;
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, ticket));
  }

  private accept(ws: WebSocket, ticket: string): void {
    const info: SocketConnection = { id: this.connections.length + 1, ticket, openedAt: Date.now(), pings: 0, pongs: 0 };
    this.connections.push(info);
    const live: Live = { info, ws, helloSent: false };
    this.live.set(info.id, live);
    const pinger = this.pingIntervalMs > 0 ? this.interval(() => ws.ping(), this.pingIntervalMs) : undefined;
    ws.on('ping', () => (info.pings += 1));
    ws.on('pong', () => (info.pongs += 1));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (!isBinary) this.onMessage(info, data.toString());
    });
    ws.on('close', (code: number) => {
      info.closedAt = Date.now();
      info.closeCode = code;
      this.live.delete(info.id);
      if (pinger) this.clear(pinger);
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.live.size,
        debug_info: { host: 'fake-applink-1', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.appId },
      }),
    );
    live.helloSent = true;
  }

  private onMessage(info: SocketConnection, text: string): void {
    let message: { envelope_id?: unknown; payload?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return; // Slack ignores what it cannot parse
    }
    if (typeof message.envelope_id !== 'string') return;
    const sent = this.sentAt.get(message.envelope_id);
    const at = Date.now();
    const ack: SocketAck = {
      envelopeId: message.envelope_id,
      payload: message.payload && typeof message.payload === 'object' ? (message.payload as Record<string, unknown>) : undefined,
      connection: info.id,
      at,
      ms: sent === undefined ? undefined : at - sent,
    };
    this.acks.push(ack);
    const waiter = this.waiters.get(ack.envelopeId);
    this.waiters.delete(ack.envelopeId);
    waiter?.(ack);
  }

  private timer(fn: () => void, ms: number): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  private interval(fn: () => void, ms: number): NodeJS.Timeout {
    const t = setInterval(fn, ms);
    this.timers.add(t);
    return t;
  }

  private clear(t: NodeJS.Timeout): void {
    clearTimeout(t);
    this.timers.delete(t);
  }
}
