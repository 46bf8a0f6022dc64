/**
 * Socket Mode end to end: the real Bolt App with its SocketModeReceiver connects to the fake Slack
 * (apps.connections.open → WebSocket → hello), takes envelopes, acks them on the socket, and does the
 * work through the fake Web API with the fake LLM and the real sandbox.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SlackStartupError } from '../../adapters/slack/main.js';
import { ConfigError } from '../../src/config/load.js';
import { APP_TOKEN, allText, py, startFakes, startSlack, startWorld, type Fakes, type World } from './harness.js';

/** Slack's limit for acknowledging an envelope, in ms (https://api.slack.com/apis/socket-mode). */
const ACK_WITHIN_MS = 3000;

let world: World | undefined;
let fakes: Fakes | undefined;
afterEach(async () => {
  await world?.close();
  await fakes?.close();
  world = undefined;
  fakes = undefined;
});

describe('Socket Mode', () => {
  it('acks a /run envelope on the socket before any work, then posts code, result and ✅ Success in the thread', async () => {
    world = await startWorld({ socketMode: true, replies: [py('print("hello over the socket")')] });
    expect(world.adapter.settings.mode).toBe('socket');
    expect(world.appUrl).toBeUndefined();
    // connected with the app-level token through the configured Web API URL
    const opens = world.slack.callsOf('apps.connections.open');
    expect(opens.map((c) => c.token)).toEqual([APP_TOKEN]);
    expect(world.slack.socket.openConnections()).toHaveLength(1);

    const ack = await world.socketCommand({ text: 'say hello' });
    expect(ack.ms).toBeLessThan(ACK_WITHIN_MS);
    expect(ack.payload).toEqual({}); // an empty ack: nothing ephemeral to say
    const root = await world.rootTs();
    // ack first: no Web API call and no LLM call of the run before it
    const runCalls = world.slack.calls.filter((c) => c.method !== 'apps.connections.open' && c.method !== 'auth.test');
    expect(runCalls[0]!.at).toBeGreaterThanOrEqual(ack.at);

    await world.finished(root);
    expect(world.llm.requests[0]!.at).toBeGreaterThanOrEqual(ack.at);
    const text = allText(world.threadPosts(root));
    expect(text).toContain('print("hello over the socket")');
    expect(text).toContain('hello over the socket\n');
    expect(text).toMatch(/Success · exit code 0/);
    const final = world.slack.callsOf('chat.update').filter((c) => c.args.ts === root).at(-1);
    expect(String(final?.args.text)).toContain('✅ Success');
    expect(String(final?.args.text)).toContain('say hello');
  });

  it('answers a refused /run in the ack itself (ephemeral payload on the socket)', async () => {
    world = await startWorld({ socketMode: true, replies: [py('print(1)')] });
    const ack = await world.socketCommand({ text: '   ' });
    expect(ack.payload).toMatchObject({ response_type: 'ephemeral' });
    expect(String(ack.payload?.text)).toContain('Usage');
    expect(world.llm.requests).toHaveLength(0);
  });

  it('improves the run when a thread reply arrives as an events_api envelope', async () => {
    world = await startWorld({ socketMode: true, replies: [py('print("hello")'), py('print("HELLO")')] });
    await world.socketCommand({ text: 'greet' });
    const root = await world.rootTs();
    await world.finished(root);

    const ack = await world.socketReply(root, 'make it uppercase');
    expect(ack.ms).toBeLessThan(ACK_WITHIN_MS);
    await world.finished(root, 2);
    const feedback = JSON.stringify(world.llm.requests[1]?.messages);
    expect(feedback).toContain('make it uppercase');
    expect(feedback).toContain('print(\\"hello\\")');
    expect(allText(world.threadPosts(root))).toContain('HELLO');
    const final = world.slack.callsOf('chat.update').filter((c) => c.args.ts === root).at(-1);
    expect(String(final?.args.text)).toContain('✅ Success · 2 attempts');
  });

  it('reconnects after Slack asks it to (disconnect: refresh_requested) and the next /run still works', async () => {
    world = await startWorld({ socketMode: true, replies: [py('print("before the refresh")'), py('print("after the refresh")')] });
    await world.socketCommand({ text: 'first' });
    await world.finished(await world.rootTs());

    const old = world.slack.socket.requestDisconnect('refresh_requested');
    // the library waits 5 s (its clientPingTimeout) before reconnecting
    const fresh = await world.slack.socket.waitForConnection(2, 20_000);
    expect(old.closeCode).toBe(1000); // the client closed it itself, the fake did not have to
    expect(fresh.ticket).not.toBe(old.ticket);
    expect(world.slack.callsOf('apps.connections.open').map((c) => c.token)).toEqual([APP_TOKEN, APP_TOKEN]);
    expect(world.slack.socket.openConnections().map((c) => c.id)).toEqual([2]);

    const ack = await world.socketCommand({ text: 'second' });
    expect(ack.connection).toBe(2);
    const root = await world.rootTs('C_MAIN', 1);
    await world.finished(root);
    expect(allText(world.threadPosts(root))).toContain('after the refresh');
  });

  it('refuses to start with a clear error when apps.connections.open rejects the app token', async () => {
    fakes = await startFakes({ socketMode: true, slack: { app_token: 'xapp-wrong' } });
    const started = startSlack(fakes.config);
    await expect(started).rejects.toThrow(SlackStartupError);
    await expect(started).rejects.toThrow(
      /Socket Mode could not connect \(apps\.connections\.open at http:\/\/127\.0\.0\.1:\d+\/api\/\): .*invalid_auth.*Check slack\.app_token \(SLACK_APP_TOKEN\)/,
    );
    // asked once (invalid_auth is final), with the token given, and never opened a socket
    expect(fakes.slack.callsOf('apps.connections.open').map((c) => c.token)).toEqual(['xapp-wrong']);
    expect(fakes.slack.socket.connections).toHaveLength(0);
  });

  it('refuses a bot token given as the app token instead of retrying apps.connections.open forever', async () => {
    // Slack answers it with not_allowed_token_type, which @slack/socket-mode treats as recoverable
    fakes = await startFakes({ socketMode: true, slack: { app_token: 'xoxb-test' } });
    const started = startSlack(fakes.config);
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(/slack\.app_token is not an app-level token.*xapp-/);
    expect(fakes.slack.callsOf('apps.connections.open')).toHaveLength(0);
  });
});
