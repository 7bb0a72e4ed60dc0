import { describe, expect, it } from 'vitest';
import { summariseToolInput, TranscriptRenderer } from '../../src/observe/transcript-view.js';
import { line, usage, type SessionSpec } from '../dashboard/support/transcripts.js';

const s: SessionSpec = { agent: 'worker-1', session: 'abc', parent: 'parser' };
const render = (lines: object[], color = false): string[] => {
  const r = new TranscriptRenderer({ color });
  return lines.flatMap((l) => r.render(l as Record<string, unknown>));
};

describe('summariseToolInput', () => {
  it('says what each call does in one line', () => {
    expect(summariseToolInput('read', { file_path: 'src/a.ts', offset: 40 })).toBe('src/a.ts:40');
    expect(summariseToolInput('write', { file_path: 'src/a.ts', content: 'a\nb\nc' })).toBe(
      'src/a.ts (3 lines)',
    );
    expect(summariseToolInput('edit', { file_path: 'a.ts', old_string: 'x', new_string: 'y\nz' })).toBe(
      'a.ts (−1 +2 lines)',
    );
    expect(summariseToolInput('bash', { command: 'npm   test\n  -- --watch=false' })).toBe(
      'npm test -- --watch=false',
    );
    expect(summariseToolInput('grep', { pattern: 'foo\\(', path: 'src', glob: '*.ts' })).toBe(
      '/foo\\(/ in src (*.ts)',
    );
    expect(summariseToolInput('send_message', { to: 'lead', content: 'done\nwith details' })).toBe(
      '→ lead: done with details',
    );
    expect(summariseToolInput('team', { do: 'send', to: 'lead', text: 'done\nwith details' })).toBe('send → lead done with details');
    expect(summariseToolInput('team', { do: 'fail', id: 'parser', text: 'no spec' })).toBe('fail parser no spec');
    expect(summariseToolInput('task_update', { id: 'parser', status: 'failed', reason: 'no spec' })).toBe(
      'parser → failed: no spec',
    );
    expect(summariseToolInput('task_write', { id: 'parser', status: 'failed', reason: 'no spec' })).toBe(
      'parser → failed: no spec',
    );
    expect(summariseToolInput('task_write', { id: 'p2', subject: 'parse it' })).toBe('p2: parse it');
    expect(summariseToolInput('task_list', { id: 'p2' })).toBe('p2');
    expect(summariseToolInput('send_message', { type: 'shutdown_response', request_id: 'r1', approve: true })).toBe(
      'shutdown r1 approved',
    );
    expect(summariseToolInput('send_message', { type: 'plan_approval_request', content: 'edit a.ts' })).toBe(
      'plan: edit a.ts',
    );
    expect(summariseToolInput('mcp_thing', { query: 'x', nested: { a: 1 }, limit: 5 })).toBe(
      'query=x limit=5',
    );
    expect(summariseToolInput('bash', { command: 'x'.repeat(300) })).toHaveLength(120);
  });
});

describe('TranscriptRenderer', () => {
  it('assistant text, tool calls, trimmed results with the tool name, costs per turn and per run', () => {
    const out = render([
      line.header(s),
      line.init(s),
      line.prompt(s, 'Task parser: Write the parser'),
      line.tool(s, 't1', 'bash', { command: 'npm test' }, usage(1000, 100)),
      line.toolResult(s, 't1', 'line 1\n\tline 2\nline 3\nline 4\nline 5'),
      line.tool(s, 't2', 'read', { file_path: 'src/parser.ts' }, usage(2000, 50, 1000, 0)),
      line.toolResult(s, 't2', 'ENOENT: no such file\nat read', true),
      line.text(s, 'The parser file is missing; creating it.', usage(10, 10)),
      line.result(s, { 'claude-sonnet-5-5': usage(3010, 160, 1000, 0) }, 0.0079, 3),
    ]);
    expect(out).toEqual([
      '── session abc · worker-1 · claude-sonnet-5-5 · 2026-11-29T09:50:00.000Z',
      '· run started for task parser in /repo/.worktrees/parser',
      '> Task parser: Write the parser',
      '● bash npm test',
      '  · turn 1: 1.0k in, 100 out, $0.0030',
      '  ↳ line 1',
      '      line 2',
      '    line 3',
      '    … (+2 lines)',
      '● read src/parser.ts',
      '  · turn 2: 2.0k in (cache read 1.0k, write 0), 50 out, $0.0046',
      '  ✘ read failed: ENOENT: no such file',
      '    at read',
      'The parser file is missing; creating it.',
      '  · turn 3: 10 in, 10 out, $0.0001',
      '✔ success after 3 turns: 3.0k in (cache read 1.0k, write 0), 160 out, $0.0079, 1.5 s',
    ]);
  });

  it('marks errors red and costs dim only with colour', () => {
    const failed = line.result(
      s,
      { 'claude-sonnet-5-5': usage(1, 1) },
      0.5,
      16,
      'error_max_turns',
      'reached 16 turns',
    );
    expect(render([failed])).toEqual([
      '✘ error_max_turns after 16 turns: 1 in, 1 out, $0.5000, 1.5 s',
      '  reached 16 turns',
    ]);
    expect(render([failed], true)).toEqual([
      '\x1b[31m✘ error_max_turns after 16 turns: 1 in, 1 out, $0.5000, 1.5 s\x1b[39m',
      '\x1b[31m  reached 16 turns\x1b[39m',
    ]);
    expect(render([line.text(s, 'hi', usage(1, 1))], true)[1]).toBe(
      '\x1b[2m  · turn 1: 1 in, 1 out, $0.0000\x1b[22m',
    );
  });

  it('says when a run answers mail, and skips what people do not need', () => {
    const m: SessionSpec = { agent: 'lead', session: 'x', parent: 'mail:m-7' };
    expect(
      render([
        line.init(m),
        { type: 'stream_event', event: { type: 'text_delta', text: 'x' } },
        { type: 'tool_use_summary' },
      ]),
    ).toEqual(['· run started for new mail in /repo/.worktrees/mail:m-7']);
  });
});
