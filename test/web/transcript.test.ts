/** Transcript lines as the page's entries: tool calls paired with results, thinking folded to its size (its text never sent). */
import { expect, it } from 'vitest';
import { transcriptEntries } from '../../src/web/transcript.js';

it('pairs calls with results, folds thinking, skips subagent lines, and keeps the notes', () => {
  const lines = [
    { type: 'header', session_id: 's1', agent: 'ann', model: 'm', created: '2026-01-01T00:00:00Z' },
    { type: 'system', subtype: 'init', parent_id: 't1', cwd: '/w' },
    { type: 'user', message: { content: 'Task t1: do it' } },
    { type: 'assistant', model: 'm', message: { content: [{ type: 'thinking', thinking: 'secret plan with five words' }, { type: 'text', text: 'On it.' }, { type: 'tool_use', id: 'u1', name: 'bash', input: { command: 'ls' } }] } },
    { type: 'assistant', depth: 1, model: 'm', message: { content: [{ type: 'text', text: 'from a subagent' }] } },
    { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'u1', content: 'a.txt', is_error: false }] } },
    { type: 'assistant', model: 'm', message: { content: [{ type: 'tool_use', id: 'u2', name: 'read', input: { file_path: 'x' } }] } },
    { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'u2', content: 'no such file', is_error: true }] } },
  ];
  const entries = transcriptEntries(lines, { prices: {} });
  expect(entries.map((e) => e.kind)).toEqual(['header', 'note', 'prompt', 'thinking', 'text', 'tool', 'tool']);
  expect(entries[3]).toEqual({ kind: 'thinking', words: 5 });
  expect(JSON.stringify(entries)).not.toContain('secret plan');
  expect(JSON.stringify(entries)).not.toContain('from a subagent');
  expect(entries[5]).toMatchObject({ name: 'bash', summary: 'ls', result: 'a.txt', isError: false });
  expect(entries[6]).toMatchObject({ name: 'read', result: 'no such file', isError: true });
});
