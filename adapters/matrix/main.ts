/**
 * `code-agent matrix`: the bot on a homeserver (docs/matrix.md). It checks the access token
 * (`/account/whoami`), syncs (sync-client.ts: the sync token kept in the data folder and saved
 * once a batch's events were handed to the pipeline, so a restart misses no event and the pipeline's
 * dedupe drops one seen twice; a first start skips the backlog), and hands each request to the pipeline,
 * embedded or as a queue-mode ingress (src/app/chat-service.ts). Runs until SIGINT or SIGTERM.
 */
import { join } from 'node:path';
import { LogLevel, LogService, MatrixClient, SimpleFsStorageProvider } from 'matrix-bot-sdk';
import { ConfigError } from '../../src/config/errors.js';
import type { Config } from '../../src/config/schema.js';
import type { App } from '../../src/app/app.js';
import { startChatService, type ChatLog, type ChatService } from '../../src/app/chat-service.js';
import { runChatProcess } from '../../src/app/chat-process.js';
import type { MessageId, OutgoingPort } from '../../src/chat/port.js';
import { listen, matrixIncoming } from './incoming.js';
import type { MatrixMessage } from './markup.js';
import { matrixOutgoing } from './outgoing.js';
import { matrixSettings, type MatrixSettings } from './settings.js';
import { MatrixTransport } from './transport.js';
import { errorLine } from '../../src/text/error-line.js';
import { SyncingClient } from './sync-client.js';

// matrix-bot-sdk logs each request, and as errors the 404s it expects; failures reach us as rejections
LogService.setLevel(LogLevel.ERROR);
LogService.muteModule('MatrixHttpClient');

/** The outgoing port on a client that never syncs (a queue worker's, or the bot's own). */
export function matrixPort(settings: MatrixSettings, log: ChatLog, client = new MatrixClient(settings.homeserverUrl, settings.accessToken)): OutgoingPort<MatrixMessage, MessageId> {
  return matrixOutgoing(new MatrixTransport(client, settings.homeserverUrl, settings.accessToken, (m) => log.warn(`matrix: ${m}`)), settings.inputLimits);
}

/** A running bot. */
export interface MatrixBot {
  userId: string;
  client: MatrixClient;
  service: ChatService<MatrixMessage>;
  /** Stops syncing at once (the long-poll aborted), lets the last batch's requests reach the pipeline, then waits up to `graceMs` for running jobs. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts the bot on a built app.
 * @throws {ConfigError} when the homeserver cannot be reached or refuses the token, or `matrix.user_id` is not the token's user;
 *   what {@link startChatService} throws
 */
export async function startMatrixBot(app: App, log: ChatLog): Promise<MatrixBot> {
  const settings = matrixSettings(app.config);
  const whoami = await new MatrixClient(settings.homeserverUrl, settings.accessToken).getWhoAmI().catch((err: unknown) => {
    throw new ConfigError(`the homeserver ${settings.homeserverUrl} did not accept matrix.access_token: ${errorLine(err)}`);
  });
  if (settings.userId && settings.userId !== whoami.user_id) throw new ConfigError(`matrix.user_id is ${settings.userId}, but the access token is ${whoami.user_id}'s`);
  const storage = new SimpleFsStorageProvider(join(settings.dataDir, 'matrix', `${encodeURIComponent(whoami.user_id)}.json`));
  const since = storage.getSyncToken() ? undefined : Date.now();
  const client = new SyncingClient(settings.homeserverUrl, settings.accessToken, storage);
  const transport = new MatrixTransport(client, settings.homeserverUrl, settings.accessToken, (m) => log.warn(`matrix: ${m}`));
  const service = await startChatService(app, {
    incoming: matrixIncoming(settings),
    outgoing: () => matrixOutgoing(transport, settings.inputLimits),
    settings,
    log,
  });
  const profile = (await client.getUserProfile(whoami.user_id).catch(() => ({}))) as { displayname?: string };
  const botNames = [/^@([^:]+)/.exec(whoami.user_id)![1]!, ...(profile.displayname ? [profile.displayname] : [])];
  listen({ transport, ingress: service.ingress, botUserId: whoami.user_id, botNames, settings, since, warn: (m) => log.warn(`matrix: ${m}`), track: (h) => client.handling(h) });
  await client.start();
  return {
    userId: whoami.user_id,
    client,
    service,
    async stop(graceMs) {
      client.stop(); // the pending /sync is aborted: no wait for the homeserver's 30 s long-poll
      await client.settled(); // the requests of the last batch reach the pipeline before it closes
      await service.close(graceMs);
    },
  };
}

/** `code-agent matrix`. @returns exit code 0 after a signal stopped it. @throws see {@link startMatrixBot} */
export async function runMatrixBot(config: Config): Promise<number> {
  matrixSettings(config); // a missing key is said before anything starts
  return runChatProcess(config, 'matrix', startMatrixBot, {
    started: (bot) => process.stderr.write(`code-agent: Matrix bot ${bot.userId} running${bot.service.queueMode ? ' (queue mode: jobs go to the workers)' : ''}\n`),
  });
}
