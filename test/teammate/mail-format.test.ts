import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/store/types.js';
import { formatMail, teammateSystemPrompt } from '../../src/teammate/prompts.js';
import { shutdownRequestMessage } from '../../src/teammate/protocol.js';

const msg = (over: Partial<Message>): Message => ({
  id: 'm1',
  from: 'lead',
  to: 'ann',
  type: 'message',
  content: 'hello',
  metadata: {},
  ts: new Date(0).toISOString(),
  ...over,
});

describe('mail as a teammate reads it', () => {
  it('a shutdown request says how to answer it, with its request id; other mail says nothing more', () => {
    const typed = formatMail([msg({ id: 'm2', ...shutdownRequestMessage('lead', 'ann', 'done', 'sd-1') })]);
    expect(typed).toContain('send_message type "shutdown_response", request_id "sd-1", approve true or false');
    const inText = formatMail([msg({ content: 'wrap up <shutdown_request from="user" request_id="r9" reason="x" />' })]);
    expect(inText).toContain('request_id "r9"');
    expect(formatMail([msg({})])).toBe('<message id="m1" from="lead" type="message">\nhello\n</message>');
  });

  it('the team part of the system prompt names the teammate and the others, in one short line', () => {
    const prompt = teammateSystemPrompt({ name: 'ann', role: 'R', roster: ['ann', 'bob', 'lead', 'user'], worktree: null, planMode: false });
    expect(prompt).toBe('R\nYou are ann, in a team with bob, lead.');
  });
});
