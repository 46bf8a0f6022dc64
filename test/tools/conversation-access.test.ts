/**
 * Which conversation may use a tool (`conversations:`): an entry is a whole conversation id or a
 * channel id alone, on every platform. A Matrix room id holds a `:` (`!abc:example.org`), so its
 * server name must never pass for a channel: that would open the tool to every room on the server.
 */
import { describe, expect, it } from 'vitest';
import { channelOf, conversationAllowed } from '../../src/tools/access.js';

describe('conversationAllowed', () => {
  it('takes a channel id alone or the whole id on Slack and Discord', () => {
    expect(channelOf('slack:T01:C0123')).toBe('C0123');
    expect(conversationAllowed(['C0123'], 'slack:T01:C0123')).toBe(true);
    expect(conversationAllowed(['slack:T01:C0123'], 'slack:T01:C0123')).toBe(true);
    expect(conversationAllowed(['456'], 'discord:123:456')).toBe(true);
    expect(conversationAllowed(['C0123'], 'slack:T01:C0999')).toBe(false);
    expect(conversationAllowed(['T01'], 'slack:T01:C0999')).toBe(false); // a team is not a channel
  });

  it('takes a Matrix room id alone or the whole id', () => {
    expect(channelOf('matrix:!abc:example.org')).toBe('!abc:example.org');
    expect(conversationAllowed(['!abc:example.org'], 'matrix:!abc:example.org')).toBe(true);
    expect(conversationAllowed(['matrix:!abc:example.org'], 'matrix:!abc:example.org')).toBe(true);
  });

  it('never lets a server name, or another room on the same server, pass for a listed Matrix room', () => {
    expect(conversationAllowed(['example.org'], 'matrix:!abc:example.org')).toBe(false);
    expect(conversationAllowed(['!abc:example.org'], 'matrix:!zzz:example.org')).toBe(false);
    expect(conversationAllowed(['abc:example.org'], 'matrix:!abc:example.org')).toBe(false);
  });

  it('lets the terminal use every configured tool, and nobody else when the list is unset', () => {
    expect(conversationAllowed(undefined, 'cli:session')).toBe(true);
    expect(conversationAllowed(undefined, 'matrix:!abc:example.org')).toBe(false);
    expect(conversationAllowed('all', 'matrix:!abc:example.org')).toBe(true);
  });
});
