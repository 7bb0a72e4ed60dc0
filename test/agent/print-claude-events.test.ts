/**
 * The converter from teamd's runtime events to Claude Code's print-mode
 * events: the cases a real run in test/cli/agent-print.test.ts does not reach
 * (api_retry, subagent events, teamd's own events, several models).
 */
import { describe, expect, it } from 'vitest';
import { ClaudeEventPrinter } from '../../src/agent/print/claude-events.js';
import type { AgentEvent, ResultEvent } from '../../src/agent/types.js';

const base = { session_id: 's1', uuid: 'u1', parent_id: null, depth: 0 };
const options = {
  includePartialMessages: false,
  permissionMode: 'default' as const,
  apiKeySource: 'none',
  mcpServers: ['up', 'down'],
  agents: ['general-purpose'],
};
const usage = {
  input_tokens: 10,
  output_tokens: 5,
  cache_read_input_tokens: 1,
  cache_creation_input_tokens: 2,
};

/** A run that failed, with no usage. */
const failedResult: ResultEvent = {
  ...base,
  type: 'result',
  subtype: 'error_during_execution',
  is_error: true,
  result: '',
  duration_ms: 1,
  duration_api_ms: 1,
  num_turns: 1,
  total_cost_usd: 0,
  usage: {},
  permission_denials: [],
};

describe('ClaudeEventPrinter', () => {
  it('system/api_retry goes out with Claude Code’s field set', () => {
    const retry: AgentEvent = {
      ...base,
      type: 'system',
      subtype: 'api_retry',
      attempt: 1,
      max_retries: 3,
      retry_delay_ms: 500,
      error_status: 529,
      error: 'overloaded',
    };
    const { parent_id: _p, depth: _d, ...claudeShape } = retry;
    expect(new ClaudeEventPrinter(options).convert(retry)).toEqual([claudeShape]);
  });

  it('init names tools as Claude Code does and tells connected from failed MCP servers', () => {
    const init: AgentEvent = {
      ...base,
      type: 'system',
      subtype: 'init',
      model: 'm',
      tools: ['bash', 'todo_write', 'mcp__up__x', 'task'],
      cwd: '/r',
      agent: 'agent',
    };
    const [out] = new ClaudeEventPrinter(options).convert(init);
    expect(out).toMatchObject({
      tools: ['Bash', 'TodoWrite', 'mcp__up__x', 'Task'],
      mcp_servers: [
        { name: 'up', status: 'connected' },
        { name: 'down', status: 'failed' },
      ],
      permissionMode: 'default',
      agents: ['general-purpose'],
    });
  });

  it('a subagent’s assistant event names the tool_use that started it', () => {
    const event: AgentEvent = {
      ...base,
      parent_id: 'toolu_9',
      depth: 1,
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'x' }] },
      model: 'm',
      usage,
      stop_reason: 'end_turn',
    };
    expect(new ClaudeEventPrinter(options).convert(event)[0]).toMatchObject({
      parent_tool_use_id: 'toolu_9',
    });
  });

  it('progress, tool_use_summary, a prompt echo and deltas (without the flag) print nothing', () => {
    const printer = new ClaudeEventPrinter(options);
    const events: AgentEvent[] = [
      { ...base, type: 'progress', tool_use_id: 't', tool: 'bash', text: 'x' },
      {
        ...base,
        type: 'tool_use_summary',
        tool_use_id: 't',
        tool: 'bash',
        summary: 's',
        is_error: false,
        duration_ms: 1,
      },
      { ...base, type: 'user', message: { role: 'user', content: 'the prompt' } },
      { ...base, type: 'stream_event', event: { type: 'text_delta', text: 'x' } },
    ];
    expect(events.flatMap((e) => printer.convert(e))).toEqual([]);
  });

  it('result: usage summed flat, modelUsage per model, stop_reason only on success, api_error_status', () => {
    const printer = new ClaudeEventPrinter(options);
    printer.convert({
      ...base,
      type: 'assistant',
      message: { role: 'assistant', content: 'x' },
      model: 'a',
      usage,
      stop_reason: 'end_turn',
    });
    const result: ResultEvent = {
      ...failedResult,
      usage: { 'claude-sonnet-5-5': usage, 'claude-haiku-5-5': usage },
      error: 'boom',
      model_error: { kind: 'server', message: 'boom', retryable: true, status: 500 },
    };
    const out = printer.result(result);
    expect(out).toMatchObject({
      stop_reason: null,
      api_error_status: 500,
      usage: {
        input_tokens: 20,
        output_tokens: 10,
        cache_read_input_tokens: 2,
        cache_creation_input_tokens: 4,
      },
      error: 'boom',
    });
    expect(Object.keys(out.modelUsage as object)).toEqual(['claude-sonnet-5-5', 'claude-haiku-5-5']);
    expect(printer.result({ ...result, subtype: 'success', is_error: false })).toMatchObject({
      stop_reason: 'end_turn',
    });
  });
});

describe('tool_use_result', () => {
  const call = (id: string, name: string, input: Record<string, unknown>): AgentEvent => ({
    ...base,
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    model: 'm',
    usage,
    stop_reason: 'tool_use',
  });
  const result = (id: string, content: string | { type: 'text'; text: string }[], isError = false): AgentEvent => ({
    ...base,
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }] },
  });
  const printed = (events: AgentEvent[]) => {
    const printer = new ClaudeEventPrinter(options);
    return events.flatMap((e) => printer.convert(e)).filter((e) => e.type === 'user').map((e) => e.tool_use_result);
  };

  it("takes each tool's Claude Code object (the interop comparison checks Bash and MCP against the real CLI)", () => {
    const init: AgentEvent = { ...base, type: 'system', subtype: 'init', cwd: '/w', tools: [], model: 'm', permissionMode: 'default' } as unknown as AgentEvent;
    expect(
      printed([
        init,
        call('t1', 'read', { file_path: 'a.txt' }),
        result('t1', '     1\tone\n     2\ttwo'),
        call('t2', 'bash', { command: 'false' }),
        result('t2', 'exit code 1', true),
        call('t3', 'mcp__echo__echo', { text: 'x' }),
        result('t3', [{ type: 'text', text: 'echo: x' }]),
        result('unknown', 'plain'),
      ]),
    ).toEqual([
      { type: 'text', file: { filePath: '/w/a.txt', content: 'one\ntwo', numLines: 2, startLine: 1, totalLines: 2 } },
      'Error: exit code 1',
      [{ type: 'text', text: 'echo: x' }],
      'plain',
    ]);
  });
});

describe('replayUserMessages', () => {
  it('prints the prompt back after system/init, once, before the run’s first event', () => {
    const printer = new ClaudeEventPrinter({ ...options, replayUserMessages: true });
    const init = { ...base, type: 'system', subtype: 'init', cwd: '/w', tools: [], model: 'm', permissionMode: 'default' } as unknown as AgentEvent;
    const answer: AgentEvent = { ...base, type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'a' }] }, model: 'm', usage, stop_reason: 'end_turn' };
    printer.replay('hello');
    const out = [init, answer, answer].flatMap((e) => printer.convert(e));
    expect(out.map((e) => `${String(e.type)}${e.isReplay ? ':replay' : ''}`)).toEqual(['system', 'user:replay', 'assistant', 'assistant']);
    expect(out[1]).toMatchObject({ message: { role: 'user', content: 'hello' }, session_id: 's1', parent_tool_use_id: null });
    const quiet = new ClaudeEventPrinter(options);
    quiet.replay('hello');
    expect(quiet.convert(answer).some((e) => e.isReplay)).toBe(false);
  });

  it('--include-partial-messages: one raw frame per agent, a subagent’s interleaved by its tool_use, a failed call dropped at the result', () => {
    const printer = new ClaudeEventPrinter({ ...options, includePartialMessages: true });
    type Base = { session_id: string; uuid: string; parent_id: string | null; depth: number };
    const sub: Base = { ...base, parent_id: 'toolu_task', depth: 1 };
    const start = (b: Base, index: number): AgentEvent => ({
      ...b,
      type: 'stream_event',
      event: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    });
    const text = (b: Base, index: number): AgentEvent => ({
      ...b,
      type: 'stream_event',
      event: { type: 'text_delta', text: 'x', index },
    });
    const assistant = (b: Base, blocks = 1): AgentEvent => ({
      ...b,
      type: 'assistant',
      message: { role: 'assistant', content: Array.from({ length: blocks }, () => ({ type: 'text' as const, text: 'x' })) },
      model: 'm',
      usage,
      stop_reason: 'end_turn',
    });
    const events = [
      start(base, 0),
      text(base, 0),
      start(sub, 0),
      text(sub, 0),
      start(base, 1),
      text(sub, 0),
      assistant(sub),
      assistant(base, 2),
    ];
    const printed = events.flatMap((e) => printer.convert(e));
    const seq = (parent: string | null) =>
      printed
        .filter((e) => e.parent_tool_use_id === parent)
        .map((e) => (e.type === 'stream_event' ? `${(e.event as { type: string }).type}` : e.type));
    const frame = ['message_start', 'content_block_start', 'content_block_delta'];
    // one assistant line per block (Claude Code's), each before its block's stop
    expect(seq(null)).toEqual([
      ...frame,
      'assistant',
      'content_block_stop',
      'content_block_start',
      'assistant',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(seq('toolu_task')).toEqual([
      ...frame,
      'content_block_delta',
      'assistant',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    // a call that streamed and failed (no assistant message): the next run's call opens its own message
    printer.convert(start(base, 0));
    printer.convert(failedResult);
    const next = printer.convert(start(base, 0)).map((e) => (e.event as { type: string }).type);
    expect(next).toEqual(['message_start', 'content_block_start']);
  });
});
