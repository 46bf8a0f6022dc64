/**
 * Clear startup errors instead of a silent bot, for the gateway close codes that end the connection
 * for good. Source: https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes
 */

/** The bot could not connect; `message` says why and what to do. */
export class DiscordStartupError extends Error {
  override name = 'DiscordStartupError';
}

const HELP: Record<number, string> = {
  4004: 'Discord refused the token (close code 4004 "Authentication failed"): check discord.token (Developer Portal → Bot → Reset Token).',
  4013: 'Discord refused the intents (close code 4013 "Invalid intent(s)").',
  4014:
    'Discord refused the Message Content intent (close code 4014 "Disallowed intent(s)"): open the Developer Portal → your application → Bot → Privileged Gateway Intents, turn on MESSAGE CONTENT INTENT, save, and start again (see docs/discord.md).',
};

/** The startup error for a gateway close code, or for an error thrown by `client.login()`. */
export function startupErrorFor(code: number | undefined, cause?: unknown): DiscordStartupError {
  const message = (cause as Error | undefined)?.message ?? '';
  if (code === undefined) {
    if (/disallowed intents/i.test(message)) code = 4014;
    else if (/invalid intents/i.test(message)) code = 4013;
    else if (/token/i.test(message) || (cause as { status?: number })?.status === 401) code = 4004;
  }
  const help = code !== undefined ? HELP[code] : undefined;
  return new DiscordStartupError(
    help ?? `cannot connect to Discord${code ? ` (gateway close code ${code})` : ''}: ${message || 'unknown error'}`,
    { cause },
  );
}
