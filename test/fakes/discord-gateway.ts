/**
 * The gateway half of the fake Discord (JSON encoding, no compression): HELLO (op 10), IDENTIFY
 * (op 2) → READY + GUILD_CREATE, heartbeat (op 1) → ACK (op 11), RESUME (op 6) → missed dispatches
 * replayed + RESUMED, and dispatches (op 0) with sequence numbers. It can refuse intents (close 4014)
 * and drop a connection to test resuming.
 * Source: https://discord.com/developers/docs/events/gateway
 */
import type http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { snowflake, type FakeWorld } from './discord-state.js';

/** Options of the fake gateway. */
export interface GatewayOptions {
  /** op 10's heartbeat_interval, in ms. Default 5000. */
  heartbeatIntervalMs?: number;
  /** IDENTIFY with any of these intent bits is closed with 4014 "Disallowed intent(s)". */
  disallowedIntents?: number;
}

/** What the gateway saw. */
export interface GatewayLog {
  /** Query strings of each connection (e.g. `v=10&encoding=json`). */
  connections: string[];
  identifies: Array<{ intents: number; token: string }>;
  resumes: Array<{ session_id: string; seq: number }>;
  heartbeats: number;
}

/** The fake gateway on an HTTP server (same port as REST). */
export class FakeGateway {
  readonly log: GatewayLog = { connections: [], identifies: [], resumes: [], heartbeats: 0 };
  private readonly wss: WebSocketServer;
  private socket: WebSocket | undefined;
  private seq = 0;
  private sessionId = '';
  /** Dispatches of the current session, for replay on RESUME. */
  private sent: Array<{ s: number; t: string; d: unknown }> = [];
  private readyWaiters: Array<() => void> = [];
  url = '';

  constructor(
    server: http.Server,
    private readonly world: FakeWorld,
    private readonly options: GatewayOptions = {},
  ) {
    this.wss = new WebSocketServer({ server });
    this.wss.on('connection', (ws, req) => this.onConnection(ws, req));
  }

  /** True while a session is identified or resumed and its socket is open. */
  get connected(): boolean {
    return this.socket?.readyState === 1 && this.sessionId !== '';
  }

  /** Resolves when the next READY or RESUMED was sent (or at once if `connected` and `now` is false). */
  waitReady(): Promise<void> {
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Sends a dispatch (op 0); buffered for replay when no socket is open. */
  dispatch(t: string, d: unknown): void {
    const event = { s: ++this.seq, t, d };
    this.sent.push(event);
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify({ op: 0, ...event }));
  }

  /** Closes the current connection from the server side (default 4000 "Unknown error": the client resumes). */
  drop(code = 4000): void {
    this.socket?.close(code, 'fake drop');
    this.socket = undefined;
  }

  close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }

  private onConnection(ws: WebSocket, req: http.IncomingMessage): void {
    this.log.connections.push((req.url ?? '').replace(/^[^?]*\??/, ''));
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.options.heartbeatIntervalMs ?? 5000 } }));
    ws.on('message', (data) => {
      let packet: { op: number; d: Record<string, unknown> | null };
      try {
        packet = JSON.parse(String(data)) as typeof packet;
      } catch {
        ws.close(4002, 'Decode error');
        return;
      }
      this.onPacket(ws, packet.op, packet.d ?? {});
    });
  }

  private onPacket(ws: WebSocket, op: number, d: Record<string, unknown>): void {
    switch (op) {
      case 1:
        this.log.heartbeats++;
        ws.send(JSON.stringify({ op: 11 }));
        return;
      case 2:
        return this.identify(ws, Number(d.intents), String(d.token));
      case 6:
        return this.resume(ws, String(d.session_id), Number(d.seq));
      default:
        return;
    }
  }

  private identify(ws: WebSocket, intents: number, token: string): void {
    this.log.identifies.push({ intents, token });
    if ((this.options.disallowedIntents ?? 0) & intents) {
      ws.close(4014, 'Disallowed intent(s).');
      return;
    }
    this.socket = ws;
    this.sessionId = snowflake();
    this.seq = 0;
    this.sent = [];
    this.dispatch('READY', {
      v: 10,
      user: { ...this.world.bot, discriminator: '0', avatar: null, global_name: null },
      guilds: [{ id: this.world.guildId, unavailable: true }],
      session_id: this.sessionId,
      resume_gateway_url: this.url,
      shard: [0, 1],
      application: { id: this.world.applicationId, flags: 0 },
      private_channels: [],
    });
    this.dispatch('GUILD_CREATE', this.world.guildJson());
    this.ready();
  }

  private resume(ws: WebSocket, sessionId: string, seq: number): void {
    this.log.resumes.push({ session_id: sessionId, seq });
    if (sessionId !== this.sessionId) {
      ws.send(JSON.stringify({ op: 9, d: false }));
      return;
    }
    this.socket = ws;
    for (const event of this.sent.filter((e) => e.s > seq)) ws.send(JSON.stringify({ op: 0, ...event }));
    this.dispatch('RESUMED', {});
    this.ready();
  }

  private ready(): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const w of waiters) w();
  }
}
