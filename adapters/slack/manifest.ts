/**
 * `code-agent slack manifest`: the Slack app manifest (adapters/slack/manifest.yml, comments kept)
 * with the slash command names of `slack.commands` and, when given, the app's public URL in every
 * request URL. Paste the result in https://api.slack.com/apps → Create New App → From a manifest
 * (or App Manifest of an existing app). Format: https://docs.slack.dev/reference/app-manifest.
 */
import { readFile } from 'node:fs/promises';
import { isMap, isSeq, parseDocument, type YAMLMap } from 'yaml';
import { InputError } from '../../src/config/errors.js';
import { slackCommandsSchema } from '../../src/config/schema.js';
import type { SlackCommandNames } from './settings.js';

/** The shipped manifest, next to this adapter's sources. */
export const MANIFEST_FILE = new URL('../../../adapters/slack/manifest.yml', import.meta.url);

/** The default name each manifest entry has, by command kind (the schema's defaults). */
const DEFAULT_NAMES: SlackCommandNames = slackCommandsSchema.parse({});

/**
 * The manifest text with the configured command names and, when `publicUrl` is given, request URLs
 * `<publicUrl>/slack/events` (Bolt's default path) for commands, events and interactivity (buttons, modals).
 * @param publicUrl an https URL without a path, e.g. `https://bot.example.org`
 * @throws {InputError} when `publicUrl` is not an https URL
 */
export function slackManifest(template: string, names: SlackCommandNames, publicUrl?: string): string {
  let events: string | undefined;
  if (publicUrl !== undefined) {
    if (!/^https:\/\/[^\s/]+\/?$/.test(publicUrl)) {
      throw new InputError(`--url ${publicUrl}: expected the app's public https URL without a path, e.g. https://bot.example.org (Slack only calls https URLs)`);
    }
    events = `${publicUrl.replace(/\/$/, '')}/slack/events`;
  }
  const doc = parseDocument(template);
  const commands = doc.getIn(['features', 'slash_commands']);
  if (isSeq(commands)) {
    for (const item of commands.items) {
      if (!isMap(item)) continue;
      const entry = item as YAMLMap;
      const kind = (Object.keys(DEFAULT_NAMES) as (keyof SlackCommandNames)[]).find((k) => DEFAULT_NAMES[k] === entry.get('command'));
      if (kind) entry.set('command', names[kind]);
      if (events) entry.set('url', events);
    }
  }
  if (events) {
    // the header's "replace https://YOUR-HOST" was done: it says which URL the manifest now holds
    const header = isMap(doc.contents) ? (doc.contents.items[0]?.key as { commentBefore?: string | null } | undefined) : undefined;
    if (header?.commentBefore) header.commentBefore = header.commentBefore.replace(/ HTTP mode: replace https:\/\/YOUR-HOST[^\n]*\n\s*socket_mode_enabled: false\./, ` HTTP mode: the request URLs are ${events}; keep socket_mode_enabled: false.`);
    doc.setIn(['settings', 'event_subscriptions', 'request_url'], events);
    doc.setIn(['settings', 'interactivity', 'request_url'], events);
  }
  return doc.toString({ lineWidth: 0 });
}

/** {@link slackManifest} of the shipped manifest file. */
export async function shippedSlackManifest(names: SlackCommandNames, publicUrl?: string): Promise<string> {
  return slackManifest(await readFile(MANIFEST_FILE, 'utf8'), names, publicUrl);
}
