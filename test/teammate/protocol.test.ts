import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/store/types.js';
import { formatMail, teammateSystemPrompt } from '../../src/teammate/prompts.js';
import { controlOf, formatControl, ipcShapeProblem, parseControlText, shutdownRequestMessage } from '../../src/teammate/protocol.js';

const msg = (over: Partial<Message>): Message => ({
  id: 'm1',
  from: 'lead',
  to: 'ann',
  type: 'message',
  content: '',
  metadata: {},
  ts: new Date(0).toISOString(),
  ...over,
});

describe('control messages', () => {
  it('recognises the compact text form inside a plain message', () => {
    const found = parseControlText('Please wrap up. <shutdown_request from="lead" request_id="r1" reason="done" /> Thanks', 'x');
    expect(found).toEqual([{ kind: 'shutdown_request', from: 'lead', requestId: 'r1', reason: 'done' }]);
    expect(parseControlText('<shutdown_approved from="ann" request_id="r1" />', 'x')[0]).toMatchObject({ kind: 'shutdown_response', approve: true });
    expect(parseControlText('<plan_rejected request_id="p" reason="split it"/>', 'lead')[0]).toEqual({
      kind: 'plan_approval_response', from: 'lead', requestId: 'p', approve: false, reason: 'split it',
    });
    expect(parseControlText('no protocol here', 'x')).toEqual([]);
  });

  it('reads the typed form and the text form to the same meaning', () => {
    const typed = controlOf(msg({ type: 'shutdown_request', metadata: { request_id: 'r2', reason: 'bye' } }));
    const text = controlOf(msg({ content: '<shutdown_request from="lead" request_id="r2" reason="bye" />' }));
    expect(typed).toEqual(text);
    expect(controlOf(msg({ content: 'hello' }))).toBeNull();
  });

  it('formats what it parses', () => {
    const c = { kind: 'shutdown_response' as const, from: 'ann', requestId: 'r3', approve: false, reason: 'busy' };
    expect(parseControlText(formatControl(c), 'x')[0]).toEqual(c);
  });
});

it('an IPC message nested deeper than 128 levels is refused before its schema sees it; an ordinary one passes', () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 10_000; i++) deep = { a: deep };
  expect(ipcShapeProblem({ type: 'event', event: deep })).toMatch(/nested deeper than 128 levels/);
  expect(ipcShapeProblem({ type: 'state', state: 'idle', task: null })).toBeUndefined();
});

describe('mail as a teammate reads it', () => {
  it('a shutdown request says how to answer it, with its request id; other mail says nothing more', () => {
    const typed = formatMail([msg({ id: 'm2', ...shutdownRequestMessage('lead', 'ann', 'done', 'sd-1') })]);
    expect(typed).toContain('team do "shutdown", id "sd-1", approve true or false');
    const inText = formatMail([msg({ content: 'wrap up <shutdown_request from="user" request_id="r9" reason="x" />' })]);
    expect(inText).toContain('id "r9"');
    expect(formatMail([msg({ content: 'hello' })])).toBe('<message id="m1" from="lead" type="message">\nhello\n</message>');
  });

  it('the team part of the system prompt names the teammate and the others, in one short line', () => {
    const prompt = teammateSystemPrompt({ name: 'ann', role: 'R', roster: ['ann', 'bob', 'lead', 'user'], worktree: null, planMode: false });
    expect(prompt).toBe('R\nYou are ann, in a team with bob, lead.');
  });
});
