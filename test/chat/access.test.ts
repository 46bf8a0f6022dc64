/**
 * Access (src/chat/access.ts) as each platform asks it: an empty list allows everyone, a thread is
 * allowed by its parent channel, a Discord role stands for its members, and every platform refuses
 * in the same words, naming the key an admin edits and never an id.
 */
import { describe, expect, it } from 'vitest';
import { accessRefusal } from '../../src/chat/access.js';
import { refusal as slackRefusal } from '../../adapters/slack/incoming.js';
import { checkAccess as discordRefusal } from '../../adapters/discord/incoming.js';
import { refusalFor as matrixRefusal } from '../../adapters/matrix/incoming.js';

const none = { guilds: [], channels: [], roles: [], users: [] };

describe('who may use the bot where', () => {
  it('empty lists allow everyone on every platform', () => {
    expect(slackRefusal({ allowedChannels: [], allowedUsers: [] }, 'C1', 'U1')).toBeUndefined();
    expect(discordRefusal(none, { userId: 'u', roleIds: [] }, { guildId: undefined, channelId: 'c', parentId: undefined })).toBeUndefined();
    expect(matrixRefusal({ allowedRooms: [], allowedUsers: [] }, '!r:x', '@a:x')).toBeUndefined();
  });

  it('a place outside its list is refused in one wording that names the key, not the ids', () => {
    const slack = slackRefusal({ allowedChannels: ['C_OK'], allowedUsers: [] }, 'C_SECRET', 'U1');
    const discord = discordRefusal({ ...none, channels: ['111'] }, { userId: 'u', roleIds: [] }, { guildId: 'g', channelId: '222', parentId: undefined });
    const matrix = matrixRefusal({ allowedRooms: ['!ok:x'], allowedUsers: [] }, '!secret:x', '@a:x');
    expect(slack).toBe('This bot is not enabled in this channel: an admin can add it to `slack.allowed_channels`.');
    expect(discord).toBe('This bot is not enabled in this channel: an admin can add it to `discord.allowed_channels`.');
    expect(matrix).toBe('This bot is not enabled in this room: an admin can add it to `matrix.allowed_rooms`.');
    for (const text of [slack, discord, matrix]) expect(text).not.toMatch(/C_OK|C_SECRET|111|222|secret|!ok/);
  });

  it('a person outside the people list is refused the same way on every platform', () => {
    const words = /^You are not on the list of people who may use this bot here: an admin can add you to `/;
    expect(slackRefusal({ allowedChannels: [], allowedUsers: ['U_OK'] }, 'C1', 'U_EVE')).toMatch(words);
    expect(discordRefusal({ ...none, users: ['1'] }, { userId: '2', roleIds: [] }, { guildId: 'g', channelId: 'c', parentId: undefined })).toMatch(words);
    expect(matrixRefusal({ allowedRooms: [], allowedUsers: ['@ok:x'] }, '!r:x', '@eve:x')).toMatch(words);
  });

  it('a Discord thread is allowed by its parent channel, and a role by its members', () => {
    const lists = { ...none, channels: ['parent'], roles: ['analysts'] };
    expect(discordRefusal(lists, { userId: 'u', roleIds: ['analysts'] }, { guildId: 'g', channelId: 'thread', parentId: 'parent' })).toBeUndefined();
    expect(discordRefusal(lists, { userId: 'u', roleIds: ['guests'] }, { guildId: 'g', channelId: 'thread', parentId: 'parent' })).toMatch(/allowed_users or discord\.allowed_roles/);
    expect(discordRefusal(lists, { userId: 'u', roleIds: ['analysts'] }, { guildId: 'g', channelId: 'other', parentId: 'elsewhere' })).toMatch(/channel/);
  });

  it('a Discord server list refuses other servers and direct messages, each called by its name', () => {
    const lists = { ...none, guilds: ['g_ok'] };
    expect(discordRefusal(lists, { userId: 'u', roleIds: [] }, { guildId: 'g_other', channelId: 'c', parentId: undefined })).toMatch(/this server: .*discord\.allowed_guilds/);
    expect(discordRefusal(lists, { userId: 'u', roleIds: [] }, { guildId: undefined, channelId: 'dm', parentId: undefined })).toMatch(/this direct message: .*discord\.allowed_guilds/);
    expect(discordRefusal(lists, { userId: 'u', roleIds: [] }, { guildId: 'g_ok', channelId: 'c', parentId: undefined })).toBeUndefined();
  });

  it('an empty or missing id never matches a list (no place id is not an allowed place)', () => {
    expect(accessRefusal({ places: [{ key: 'k', allowed: [''], ids: [undefined, null, ''], place: 'channel' }], people: { key: 'p', allowed: [], ids: [] } })).toMatch(/not enabled/);
  });
});
