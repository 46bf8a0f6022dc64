/**
 * Who may use the app where: `slack.allowed_channels` and `slack.allowed_users` (empty = all).
 * Checked before anything else, so a refusal costs no LLM call.
 */
import type { SlackSettings } from './settings.js';

/**
 * @returns undefined when allowed, else the refusal shown (ephemerally) to the user.
 */
export function refusal(settings: Pick<SlackSettings, 'allowedChannels' | 'allowedUsers'>, channel: string, user: string): string | undefined {
  if (settings.allowedChannels.length > 0 && !settings.allowedChannels.includes(channel)) {
    return 'This app is not enabled in this channel. Ask an admin to add it to slack.allowed_channels.';
  }
  if (settings.allowedUsers.length > 0 && !settings.allowedUsers.includes(user)) {
    return 'You are not on the list of people who may run code with this app. Ask an admin to add you to slack.allowed_users.';
  }
  return undefined;
}
