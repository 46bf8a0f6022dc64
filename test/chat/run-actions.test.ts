/** What a click on a view's action means, once for Slack's and Discord's buttons (src/chat/run-actions.ts). */
import { describe, expect, it } from 'vitest';
import { actionMeaning, runActionOf } from '../../src/chat/run-actions.js';
import { NOT_REMEMBERED } from '../../src/chat/messages.js';

describe('actionMeaning', () => {
  it('reads the run actions and treats every other id as a choice', () => {
    expect(actionMeaning('rerun')).toEqual({ request: 'rerun', text: '' });
    expect(actionMeaning('remember')).toEqual({ request: 'remember', text: '' });
    expect(actionMeaning('improve')).toEqual({ form: 'improve' });
    expect(actionMeaning('just-this-time')).toEqual({ answer: NOT_REMEMBERED });
    expect(actionMeaning('settle:2')).toEqual({ request: 'settle', text: 'settle:2' });
    expect(actionMeaning('approve:up')).toEqual({ request: 'settle', text: 'approve:up' });
    expect(runActionOf('program:save')).toBeUndefined();
  });
});
