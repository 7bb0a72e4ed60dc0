/**
 * `teamd agent -p` as a drop-in for `claude -p`: real CLI processes against
 * the fake Messages API on 127.0.0.1 (the real SDK inside) or a scripted
 * model. Stream-json in Claude Code's shapes, the exit code per failure kind,
 * and each print-mode flag.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { echoMcpServer, RECORD_HOOK } from '../interop/scripts.js';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import { teamdArgs } from '../support/teamd-cli.js';

/** Each test has its own server and folder; the CLI is pointed at the server through its environment. */
const servers = new Map<string, FakeAnthropicServer>();
async function setup(options: Parameters<typeof startFakeAnthropicServer>[0]) {
  const server = await startFakeAnthropicServer(options);
  const dir = mkdtempSync(join(tmpdir(), 'teamd-agent-print-'));
  servers.set(dir, server);
  onTestFinished(async () => {
    servers.delete(dir);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { server, dir };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the events are read loosely, field by field
type Json = Record<string, any>;
interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  events: Json[];
}

/** `teamd agent -p …` in `cwd`, with `stdin` written and closed. */
function agent(cwd: string, args: string[], stdin = ''): Promise<Ran> {
  return new Promise((resolve) => {
    const url = servers.get(cwd)!.url;
    const env = { ...process.env, ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'test-key' };
    const child = spawn(process.execPath, teamdArgs('agent', ...args), { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(stdin);
    child.on('close', (code) => {
      const events = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Json);
      resolve({ code, stdout, stderr, events });
    });
  });
}

const API = ['--model', 'claude-sonnet-5', '--output-format', 'stream-json', '--verbose'];
const TOOL_THEN_DONE: ScriptInput = {
  steps: [
    { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo hi > out.txt' } }] },
    { content: [{ type: 'text', text: 'Done.' }] },
  ],
};
const of = (ran: Ran, type: string, subtype?: string) =>
  ran.events.filter((e) => e.type === type && (subtype === undefined || e.subtype === subtype));

describe('teamd agent -p, stream-json as Claude Code prints it', () => {
  it('init, assistant, user tool result and result carry Claude Code’s fields', async () => {
    const { dir } = await setup({ script: TOOL_THEN_DONE });
    const ran = await agent(dir, ['-p', 'go', ...API, '--dangerously-skip-permissions']);
    expect(ran.code, ran.stderr).toBe(0);
    const [init] = of(ran, 'system', 'init');
    expect(init).toMatchObject({
      cwd: dir,
      model: 'claude-sonnet-5',
      permissionMode: 'bypassPermissions',
      apiKeySource: 'ANTHROPIC_API_KEY',
      mcp_servers: [],
    });
    expect(init!.tools).toEqual(expect.arrayContaining(['Bash', 'Read', 'Edit', 'Write', 'Task']));
    const [first, last] = of(ran, 'assistant');
    expect(first).toMatchObject({ parent_tool_use_id: null, session_id: init!.session_id });
    expect(first!.message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5',
      // Claude Code's assistant lines have no stop reason yet (it is in the result) and message_start's usage
      stop_reason: null,
    });
    expect(first!.message.id).toMatch(/^msg_/);
    expect(first!.message.content[0]).toMatchObject({ type: 'tool_use', name: 'Bash' });
    expect(Object.keys(first!.message.usage).sort()).toEqual(
      ['cache_creation_input_tokens', 'cache_read_input_tokens', 'input_tokens', 'output_tokens'],
    );
    expect(first!.message.usage.output_tokens).toBe(1);
    expect(first!.message.id).toMatch(/^msg_fake_/);
    expect(last!.message.stop_reason).toBe(null);
    const [user] = of(ran, 'user');
    expect(user).toMatchObject({ parent_tool_use_id: null, message: { role: 'user' } });
    expect(user!.tool_use_result).toEqual({ stdout: '', stderr: '', interrupted: false, isImage: false, noOutputExpected: false });
    const [result] = of(ran, 'result');
    expect(result).toMatchObject({
      subtype: 'success',
      is_error: false,
      stop_reason: 'end_turn',
      api_error_status: null,
      num_turns: 2,
    });
    expect(result!.usage.output_tokens).toBeGreaterThan(0);
    expect(result!.modelUsage['claude-sonnet-5']).toMatchObject({
      outputTokens: result!.usage.output_tokens,
    });
    expect(of(ran, 'stream_event')).toEqual([]);
    expect(of(ran, 'tool_use_summary')).toEqual([]);
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('hi\n');
  });

  it('--include-partial-messages adds stream_event lines carrying the API event', async () => {
    const { dir } = await setup({
      script: { steps: [{ content: [{ type: 'text', text: 'Hello there.' }] }] },
    });
    const ran = await agent(dir, ['-p', 'hi', ...API, '--include-partial-messages']);
    expect(ran.code, ran.stderr).toBe(0);
    const deltas = of(ran, 'stream_event').filter((d) => d.event.type === 'content_block_delta');
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas[0]).toMatchObject({
      parent_tool_use_id: null,
      event: { type: 'content_block_delta', delta: { type: 'text_delta' } },
    });
    expect(deltas.map((d) => d.event.delta.text).join('')).toBe('Hello there.');
  });

  it('--include-partial-messages prints the raw API sequence with Claude Code fields around each assistant message', async () => {
    const { dir } = await setup({ script: TOOL_THEN_DONE });
    const ran = await agent(dir, ['-p', 'hi', ...API, '--include-partial-messages', '--dangerously-skip-permissions']);
    expect(ran.code, ran.stderr).toBe(0);
    const shapes = ran.events
      .filter((e) => ['stream_event', 'assistant', 'user'].includes(e.type))
      .map((e) => (e.type === 'stream_event' ? e.event.type : e.type))
      .filter((t, i, all) => t !== 'content_block_delta' || all[i - 1] !== t);
    // the assistant event before the last block's stop, where Claude Code prints it (test/interop compares)
    const call = ['message_start', 'content_block_start', 'content_block_delta', 'assistant', 'content_block_stop', 'message_delta', 'message_stop'];
    expect(shapes).toEqual([...call, 'user', ...call]);
    const streamed = of(ran, 'stream_event');
    const init = of(ran, 'system', 'init')[0]!;
    const [first, second] = of(ran, 'assistant');
    for (const e of streamed) {
      const extra = e.event.type === 'message_start' ? ['thinking_display', 'ttft_ms'] : [];
      expect(Object.keys(e).sort()).toEqual(
        ['api_message_id', 'event', 'parent_tool_use_id', 'session_id', 'type', 'uuid', ...extra].sort(),
      );
      expect(e).toMatchObject({ session_id: init.session_id, parent_tool_use_id: null });
    }
    expect([...new Set(streamed.map((e) => e.api_message_id))]).toEqual([first!.message.id, second!.message.id]);
    expect(new Set(streamed.map((e) => e.uuid)).size).toBe(streamed.length);
    const [start] = streamed.filter((e) => e.event.type === 'message_start');
    expect(start!.ttft_ms).toBeGreaterThanOrEqual(0);
    expect(start!.event.message).toMatchObject({ id: first!.message.id, role: 'assistant', model: 'claude-sonnet-5', content: [] });
    const blockStart = streamed.find((e) => e.event.type === 'content_block_start')!;
    expect(blockStart.event).toMatchObject({ index: 0, content_block: { type: 'tool_use', name: 'Bash', input: {} } });
    expect(blockStart.event.content_block.id).toBe(first!.message.content[0].id);
    const stops = streamed.filter((e) => e.event.type === 'message_delta').map((e) => e.event.delta.stop_reason);
    expect(stops).toEqual(['tool_use', 'end_turn']);
  });

  it('--include-partial-messages with a call cut before any output and retried: one frame per call, nothing repeated', async () => {
    // the cut attempt takes its step: the first step twice
    const script = { steps: [TOOL_THEN_DONE.steps![0]!, ...TOOL_THEN_DONE.steps!] };
    const { dir, server } = await setup({ script, faults: [{ kind: 'cut_stream' }] });
    const ran = await agent(dir, ['-p', 'hi', ...API, '--include-partial-messages', '--dangerously-skip-permissions']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(server.requests.map((r) => r.outcome)[0]).toBe('fault:cut_stream');
    expect(of(ran, 'system', 'api_retry')).toHaveLength(1);
    const raw = of(ran, 'stream_event').map((e) => e.event);
    expect(raw.filter((e) => e.type === 'message_start')).toHaveLength(2);
    expect(raw.filter((e) => e.type === 'content_block_start').map((e) => e.content_block.type)).toEqual(['tool_use', 'text']);
    const json = raw.filter((e) => e.delta?.type === 'input_json_delta').map((e) => e.delta.partial_json).join('');
    expect(JSON.parse(json)).toEqual({ command: 'echo hi > out.txt' });
  });

  it('--include-partial-messages also streams tool input (input_json_delta) and thinking (thinking_delta) at their block index', async () => {
    const { dir } = await setup({
      script: {
        steps: [
          {
            content: [
              { type: 'thinking', thinking: 'I should write the file first.' },
              { type: 'tool_use', name: 'bash', input: { command: 'echo hi > out.txt' } },
            ],
          },
          { content: [{ type: 'text', text: 'Done.' }] },
        ],
      },
    });
    const ran = await agent(dir, ['-p', 'hi', ...API, '--include-partial-messages', '--dangerously-skip-permissions']);
    expect(ran.code, ran.stderr).toBe(0);
    const deltas = of(ran, 'stream_event')
      .filter((d) => d.event.type === 'content_block_delta')
      .map((d) => d.event as { index: number; delta: Record<string, string> });
    const thinking = deltas.filter((d) => d.delta.type === 'thinking_delta');
    expect(thinking.map((d) => d.delta.thinking).join('')).toBe('I should write the file first.');
    const input = deltas.filter((d) => d.delta.type === 'input_json_delta');
    expect(JSON.parse(input.map((d) => d.delta.partial_json).join(''))).toEqual({ command: 'echo hi > out.txt' });
    expect(new Set(thinking.map((d) => d.index))).toEqual(new Set([0]));
    expect(new Set(input.map((d) => d.index))).toEqual(new Set([1]));
    expect(deltas.every((d) => (d as unknown as { type: string }).type === 'content_block_delta')).toBe(true);
    // one assistant line per block, each just before its block's stop, all with message_start's usage
    const around = ran.events
      .filter((e) => e.type === 'assistant' || e.event?.type === 'content_block_stop')
      .map((e) => (e.type === 'assistant' ? `assistant:${e.message.content.map((b: { type: string }) => b.type).join('+')}` : `stop:${e.event.index}`));
    expect(around).toEqual(['assistant:thinking', 'stop:0', 'assistant:tool_use', 'stop:1', 'assistant:text', 'stop:0']);
    const [thought, call] = of(ran, 'assistant');
    const start = of(ran, 'stream_event').find((e) => e.event.type === 'message_start')!;
    expect(thought!.message.id).toBe(call!.message.id);
    expect(thought!.message.id).toBe(start.event.message.id);
    for (const line of [thought!, call!]) expect(line.message.usage).toEqual(start.event.message.usage);
    expect(thought!.message.content[0]).toMatchObject({ type: 'thinking', thinking: 'I should write the file first.' });
    expect(call!.message.content[0]).toMatchObject({ type: 'tool_use', name: 'Bash', input: { command: 'echo hi > out.txt' } });
    const delta = of(ran, 'stream_event').find((e) => e.event.type === 'message_delta')!;
    expect(Object.keys(delta.event.usage)).toEqual(['output_tokens']);
  });

  it('--verbose alone: one assistant line per content block as well (same id, one block each)', async () => {
    const two = { content: [{ type: 'text', text: 'Writing.' }, { type: 'tool_use', name: 'bash', input: { command: 'true' } }] };
    const { dir } = await setup({ script: { steps: [two, { content: [{ type: 'text', text: 'Done.' }] }] } as ScriptInput });
    const ran = await agent(dir, ['-p', 'hi', ...API, '--dangerously-skip-permissions']);
    expect(ran.code, ran.stderr).toBe(0);
    const lines = of(ran, 'assistant');
    expect(lines.map((e) => e.message.content.map((b: { type: string }) => b.type))).toEqual([['text'], ['tool_use'], ['text']]);
    expect(lines[0]!.message.id).toBe(lines[1]!.message.id);
    expect(lines[1]!.message.id).not.toBe(lines[2]!.message.id);
    expect(lines[0]!.message.usage).toEqual(lines[1]!.message.usage);
    expect(lines.map((e) => e.message.stop_reason)).toEqual([null, null, null]);
    expect(of(ran, 'result')[0]).toMatchObject({ stop_reason: 'end_turn', is_error: false });
  });
});

describe('teamd agent -p exit codes', () => {
  it('a model error: is_error, api_error_status, exit 1', async () => {
    const { dir } = await setup({
      script: { steps: [{ error: { kind: 'invalid_request', message: 'bad' } }] },
    });
    const ran = await agent(dir, ['-p', 'hi', ...API]);
    expect(ran.code).toBe(1);
    expect(of(ran, 'result')[0]).toMatchObject({ is_error: true, api_error_status: 400 });
  });

  it('the budget spent: error_max_budget_usd, exit 1', async () => {
    const { dir } = await setup({
      script: {
        rules: [
          {
            times: 'always',
            content: [{ type: 'tool_use', name: 'bash', input: { command: 'true' } }],
            usage: { input_tokens: 100000, output_tokens: 1000 },
          },
        ],
      },
    });
    const ran = await agent(dir, [
      '-p',
      'hi',
      ...API,
      '--max-budget-usd',
      '0.01',
      '--dangerously-skip-permissions',
    ]);
    expect(of(ran, 'result')[0]).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
    expect(ran.code).toBe(1);
  });

  it('a prompt blocked by a UserPromptSubmit hook (from --settings): exit 1', async () => {
    const { dir } = await setup({ script: { steps: [] } });
    const settings = {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }] },
    };
    const ran = await agent(dir, ['-p', 'hi', ...API, '--settings', JSON.stringify(settings)]);
    expect(of(ran, 'result')[0]).toMatchObject({ is_error: true });
    expect(ran.code).toBe(1);
  });
});

describe('teamd agent -p flags', () => {
  it('--input-format stream-json: each user line is one run of one conversation', async () => {
    const { server, dir } = await setup({
      script: {
        steps: [
          { turn: 0, content: [{ type: 'text', text: 'first' }] },
          { turn: 1, content: [{ type: 'text', text: 'second' }] },
        ],
      },
    });
    const line = (text: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: text } });
    const ran = await agent(
      dir,
      ['-p', ...API, '--input-format', 'stream-json'],
      `${line('one')}\n${line('two')}\n`,
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(of(ran, 'result').map((r) => r.result)).toEqual(['first', 'second']);
    // Claude Code prints system/init again before each stdin message's run
    const inits = of(ran, 'system', 'init');
    expect(inits).toHaveLength(2);
    expect(inits[1]!.session_id).toBe(inits[0]!.session_id);
    expect(inits[1]!.uuid).not.toBe(inits[0]!.uuid);
    expect(ran.events.map((e) => e.type)).toEqual(['system', 'assistant', 'result', 'system', 'assistant', 'result']);
    server.script!.assertComplete();
  });

  it('--input-format stream-json: a bad line is refused naming the line', async () => {
    const { dir } = await setup({ script: { steps: [] } });
    const ran = await agent(dir, ['-p', ...API, '--input-format', 'stream-json'], 'not json\n');
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/stdin line 1: not valid JSON/);
  });

  it('--continue and --resume go on with the saved session', async () => {
    const { dir } = await setup({
      script: {
        steps: [
          { turn: 0, content: [{ type: 'text', text: 'one' }] },
          { turn: 1, content: [{ type: 'text', text: 'two' }] },
          { turn: 2, content: [{ type: 'text', text: 'three' }] },
        ],
      },
    });
    const first = await agent(dir, ['-p', 'a', ...API]);
    const session = of(first, 'result')[0]!.session_id as string;
    const second = await agent(dir, ['-p', 'b', ...API, '--continue']);
    expect(of(second, 'result')[0]).toMatchObject({ result: 'two', session_id: session });
    const third = await agent(dir, ['-p', 'c', ...API, '--resume', session]);
    expect(of(third, 'result')[0]).toMatchObject({ result: 'three', session_id: session });
  });

  it('--fork-session goes on under a new id and leaves the old session as it was; --agents adds subagents; --fallback-model', async () => {
    const say = (turn: number, text: string) => ({ turn, times: 'always' as const, content: [{ type: 'text' as const, text }] });
    const { dir } = await setup({ script: { rules: [say(0, 'one'), say(1, 'two'), say(2, 'three')] } });
    const first = await agent(dir, ['-p', 'a', ...API]);
    const session = of(first, 'result')[0]!.session_id as string;
    const fork = await agent(dir, ['-p', 'b', ...API, '--continue', '--fork-session']);
    const forked = of(fork, 'result')[0]!;
    expect(forked).toMatchObject({ result: 'two' });
    expect(forked.session_id).not.toBe(session);
    expect(of(fork, 'system', 'init')[0]!.session_id).toBe(forked.session_id);
    const again = await agent(dir, ['-p', 'c', ...API, '--resume', session]);
    expect(of(again, 'result')[0]).toMatchObject({ result: 'two', session_id: session });
    const later = await agent(dir, ['-p', 'd', ...API, '--resume', forked.session_id as string]);
    expect(of(later, 'result')[0]).toMatchObject({ result: 'three', session_id: forked.session_id });

    const agents = JSON.stringify({ checker: { description: 'Checks.', prompt: 'Check.', tools: ['Read', 'Frob'] } });
    const withAgents = await agent(dir, ['-p', 'e', ...API, '--agents', agents, '--fallback-model', 'claude-haiku-5']);
    expect(withAgents.code, withAgents.stderr).toBe(0);
    expect(of(withAgents, 'system', 'init')[0]!.agents).toEqual(expect.arrayContaining(['checker', 'general-purpose']));
    expect(withAgents.stderr).toContain('--agents checker: tools: "Frob" is not a teamd or Claude Code tool');
    const bad = await agent(dir, ['-p', 'f', ...API, '--agents', '{"x": {"description": "d"}}']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--agents x.prompt: must be a non-empty string');
    const same = await agent(dir, ['-p', 'g', ...API, '--fallback-model', 'claude-sonnet-5']);
    expect(same.code).toBe(1);
    expect(same.stderr).toContain('--fallback-model: the fallback model cannot be the same as the main model');
  });

  it('--permission-prompt-tool: an MCP tool answers the asks (allow one command, deny another)', async () => {
    const { dir } = await setup({
      script: {
        steps: [
          { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo allowed > a.txt' } }] },
          { afterTool: 'bash', content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo refused > b.txt' } }] },
          { afterTool: 'bash', match: 'no b files', content: [{ type: 'text', text: 'Done.' }] },
        ],
      },
    });
    const sdk = (path: string): string => JSON.stringify(import.meta.resolve(`@modelcontextprotocol/sdk/${path}`));
    writeFileSync(
      join(dir, 'approve-mcp.mjs'),
      `import { McpServer } from ${sdk('server/mcp.js')};
import { StdioServerTransport } from ${sdk('server/stdio.js')};
import { z } from ${JSON.stringify(import.meta.resolve('zod'))};
const server = new McpServer({ name: 'gate', version: '1.0.0' });
server.registerTool('approve', { description: 'answers permission asks', inputSchema: { tool_name: z.string(), input: z.any(), tool_use_id: z.string() } },
  async ({ tool_name, input }) => ({ content: [{ type: 'text', text: JSON.stringify(
    tool_name === 'Bash' && String(input.command).includes('b.txt') ? { behavior: 'deny', message: 'no b files' } : { behavior: 'allow' }) }] }));
await server.connect(new StdioServerTransport());
`,
    );
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { gate: { command: process.execPath, args: [join(dir, 'approve-mcp.mjs')] } } }));
    const ran = await agent(dir, ['-p', 'go', ...API, '--permission-mode', 'default', '--permission-prompt-tool', 'mcp__gate__approve']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(existsSync(join(dir, 'a.txt'))).toBe(true);
    expect(existsSync(join(dir, 'b.txt'))).toBe(false);
    // Claude Code's entry (its tool name, no message); the tool result is the tool's message as it is
    const [denial] = of(ran, 'result')[0]!.permission_denials;
    expect(Object.keys(denial).sort()).toEqual(['tool_input', 'tool_name', 'tool_use_id']);
    expect(denial).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'echo refused > b.txt' } });
    const results = of(ran, 'user').flatMap((e) => e.message.content);
    expect(results.find((b: { is_error?: boolean }) => b.is_error === true)).toMatchObject({ content: 'no b files' });
    const bad = await agent(dir, ['-p', 'go', ...API, '--permission-prompt-tool', 'approve']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not an MCP tool name');
  });

  it('.mcp.json, --mcp-config, --strict-mcp-config, .claude/agents, --permission-mode', async () => {
    const { dir } = await setup({
      script: { rules: [{ times: 'always', content: [{ type: 'text', text: 'ok' }] }] },
    });
    writeFileSync(join(dir, 'echo-mcp.mjs'), echoMcpServer());
    const server = { command: process.execPath, args: [join(dir, 'echo-mcp.mjs')] };
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { echo: server } }));
    mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      join(dir, '.claude', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n',
    );
    const project = await agent(dir, ['-p', 'hi', ...API, '--permission-mode', 'plan']);
    expect(of(project, 'system', 'init')[0]).toMatchObject({
      permissionMode: 'plan',
      mcp_servers: [{ name: 'echo', status: 'connected' }],
    });
    expect(of(project, 'system', 'init')[0]!.tools).toEqual(
      expect.arrayContaining(['mcp__echo__echo', 'Task']),
    );
    expect(of(project, 'system', 'init')[0]!.agents).toEqual(
      expect.arrayContaining(['reviewer', 'general-purpose']),
    );
    const inline = JSON.stringify({ mcpServers: { other: server } });
    const strict = await agent(dir, ['-p', 'hi', ...API, '--mcp-config', inline, '--strict-mcp-config']);
    expect(of(strict, 'system', 'init')[0]!.tools).toContain('mcp__other__echo');
    expect(of(strict, 'system', 'init')[0]!.tools).not.toContain('mcp__echo__echo');
  });

  it('an agent file of .claude/agents is a role the Task tool runs', async () => {
    const { dir } = await setup({
      script: {
        rules: [
          { conversation: 'Check the change', content: [{ type: 'text', text: 'Looks fine.' }] },
          {
            match: 'delegate',
            content: [
              {
                type: 'tool_use',
                name: 'task',
                input: { description: 'review', prompt: 'Check the change', subagent_type: 'reviewer' },
              },
            ],
          },
          { afterTool: 'task', content: [{ type: 'text', text: 'Reviewed.' }] },
        ],
      },
    });
    mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      join(dir, '.claude', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews.\ntools: Read, Grep\n---\nReview.\n',
    );
    const ran = await agent(dir, ['-p', 'delegate', ...API]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.stringify(of(ran, 'user')[0]!.message)).toContain('Looks fine.');
    expect(of(ran, 'result')[0]).toMatchObject({ result: 'Reviewed.', is_error: false });
  });

  it('permissions of .claude/settings.json apply; a bad field in settings.local.json is a warning naming it', async () => {
    const { dir } = await setup({
      script: {
        steps: [
          { content: [{ type: 'tool_use', name: 'bash', input: { command: 'touch made' } }] },
          { content: [{ type: 'text', text: 'Made.' }] },
        ],
      },
    });
    mkdirSync(join(dir, '.claude'), { recursive: true });
    writeFileSync(
      join(dir, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(touch:*)'] } }),
    );
    writeFileSync(
      join(dir, '.claude', 'settings.local.json'),
      JSON.stringify({ permissions: { deny: 'Bash' } }),
    );
    const ran = await agent(dir, ['-p', 'go', ...API]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(existsSync(join(dir, 'made'))).toBe(true);
    expect(ran.stderr).toMatch(/\.claude\/settings\.local\.json: permissions\.deny/);
  });

  it('--settings hooks run; --disallowedTools denies; --system-prompt and --append-system-prompt reach the API', async () => {
    const { server, dir } = await setup({ script: TOOL_THEN_DONE });
    writeFileSync(join(dir, 'record.mjs'), RECORD_HOOK);
    const log = join(dir, 'hooks.jsonl');
    const command = `INTEROP_HOOK_LOG=${log} node ${join(dir, 'record.mjs')}`;
    const settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } };
    const ran = await agent(dir, [
      '-p',
      'go',
      ...API,
      '--settings',
      JSON.stringify(settings),
      '--disallowedTools',
      'Bash(echo:*)',
      '--system-prompt',
      'You are a test.',
      '--append-system-prompt',
      'Be brief.',
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(of(ran, 'result')[0]!.permission_denials).toHaveLength(1);
    expect(existsSync(join(dir, 'out.txt'))).toBe(false);
    const system = JSON.stringify(server.requests[0]!.body!.system);
    expect(system).toContain('You are a test.');
    expect(system).toContain('Be brief.');
    expect(existsSync(log)).toBe(true);
  });

  it('--output-format json prints Claude Code’s result object; --model sonnet is an alias', async () => {
    const { dir } = await setup({ script: { steps: [{ content: [{ type: 'text', text: 'fine' }] }] } });
    // --model takes Claude Code's aliases
    const ran = await agent(dir, ['-p', 'hi', '--model', 'sonnet', '--output-format', 'json']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(Object.keys(JSON.parse(ran.stdout).modelUsage)).toEqual(['claude-sonnet-5-5']);
    expect(JSON.parse(ran.stdout)).toMatchObject({
      type: 'result',
      subtype: 'success',
      result: 'fine',
      stop_reason: 'end_turn',
      modelUsage: {},
    });
  });
});
