/**
 * Interoperability with the real Claude Code CLI (pinned; installed into a
 * cache folder by test/support/claude-code/install.ts), offline against
 * teamd's fake Messages API on 127.0.0.1. `npm run test:interop`; not part of
 * `npm test`. Skips with one clear line when the CLI cannot be installed.
 * INTEROP_DUMP=<dir> keeps each client's requests, events and hook payloads there.
 *
 * 1. Claude Code alone: a scripted conversation (a Bash call, then an answer)
 *    is one streamed POST per turn, the tool ran, the result is a success.
 * 2. Claude Code and `teamd agent -p` on the same repository (hooks, an agent
 *    file, `.mcp.json`, CLAUDE.md), the same conversation: what each hook
 *    received, field by field, and the stream-json events, event by event.
 *    Differences that remain are documented exceptions (exceptions.ts, and
 *    the table in docs/AGENT.md).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer, Fault } from '../../src/model/fake-server/types.js';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { claudeCodeEnv, ensureClaudeCode } from '../support/claude-code/install.js';
import { TSX_LOADER } from '../support/race/spawn-ts.js';
import { compareHooks, compareStreams, unexplained } from './compare.js';
import { EVENT_EXCEPTIONS, HOOK_EXCEPTIONS } from './exceptions.js';
import { makeRepo } from './repo.js';
import { runProcess, type ProcessRun } from './run.js';

const KEY = 'sk-ant-test-offline';
const MODEL = 'claude-opus-5-5';
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const claude = ensureClaudeCode();
if (!claude.ok) console.log(`interop: skipped: ${claude.reason}`);

/** The conversation, with the tool names each client offers. Strict: one answer per turn, no more. */
const conversation = (bash: string): ScriptInput => ({
  steps: [
    {
      name: 'bash',
      // two blocks: Claude Code prints one assistant line per block (same message id)
      content: [
        { type: 'text', text: 'Writing the file.' },
        {
          type: 'tool_use',
          name: bash,
          input: { command: 'echo hi > out.txt', description: 'Write out.txt' },
        },
      ],
    },
    { name: 'mcp', content: [{ type: 'tool_use', name: 'mcp__echo__echo', input: { text: 'ping' } }] },
    { name: 'answer', content: [{ type: 'text', text: 'Wrote out.txt.' }] },
  ],
});

let server: FakeAnthropicServer;
let base: string;
beforeAll(async () => {
  server = await startFakeAnthropicServer({ apiKey: KEY });
  base = mkdtempSync(join(tmpdir(), 'teamd-interop-'));
});
afterAll(async () => {
  await server?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

interface ClientRun extends ProcessRun {
  hooks: Record<string, unknown>[];
  posts: number;
  /** One line per request the server received from this client. */
  calls: string[];
  /** The first request's body, as JSON text. */
  firstRequest: string;
}

/** A different conversation, and faults for its first requests. */
interface Scenario {
  /** Absent: the usual conversation, with each client's tool names. */
  script?: ScriptInput;
  faults: Fault[];
  flags?: string[];
}

async function runClient(client: 'claude' | 'teamd', repo: string, scenario?: Scenario): Promise<ClientRun> {
  makeRepo(repo);
  server.setScript(scenario?.script ?? conversation(client === 'claude' ? 'Bash' : 'bash'));
  if (scenario) server.inject(scenario.faults);
  const before = server.requests.length;
  const hookLog = join(base, `hooks-${client}.jsonl`);
  rmSync(hookLog, { force: true });
  const home = mkdtempSync(join(base, `home-${client}-`));
  // ENABLE_TOOL_SEARCH=false: Claude Code offers MCP tools directly (not deferred behind ToolSearch), as teamd does
  const extra = { INTEROP_HOOK_LOG: hookLog, ENABLE_TOOL_SEARCH: 'false' };
  const env = { ...claudeCodeEnv(server.url, home, extra), ANTHROPIC_API_KEY: KEY };
  const flags = [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    '--dangerously-skip-permissions',
    '--model',
    MODEL,
    ...(scenario?.flags ?? []),
  ];
  const prompt = 'Write hi into out.txt, then echo ping.';
  const run =
    client === 'claude'
      ? await runProcess((claude as { bin: string }).bin, [...flags, prompt], { cwd: repo, env })
      : await runProcess(process.execPath, ['--import', TSX_LOADER, MAIN, 'agent', ...flags, prompt], {
          cwd: repo,
          env,
        });
  const mine = server.requests.slice(before);
  if (process.env.INTEROP_DUMP)
    writeFileSync(join(process.env.INTEROP_DUMP, `requests-${client}.json`), JSON.stringify(mine, null, 1));
  const posts = mine.filter((r) => r.method === 'POST' && r.body?.stream === true).length;
  const calls = mine.map(
    (r) =>
      `${r.method} ${r.path} stream=${String(r.body?.stream)} max_tokens=${String(r.body?.max_tokens)} ${r.outcome}`,
  );
  const hooks = existsSync(hookLog)
    ? readFileSync(hookLog, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
  if (process.env.INTEROP_DUMP) {
    writeFileSync(join(process.env.INTEROP_DUMP, `events-${client}.jsonl`), run.stdout);
    writeFileSync(join(process.env.INTEROP_DUMP, `hooks-${client}.json`), JSON.stringify(hooks, null, 1));
  }
  return { ...run, hooks, posts, calls, firstRequest: JSON.stringify(mine[0]?.body ?? null) };
}

const result = (run: ProcessRun) => run.events.findLast((e) => e.type === 'result');

describe.skipIf(!claude.ok)(`Claude Code ${claude.ok ? claude.version : ''} against the fake server`, () => {
  let cc: ClientRun;
  let td: ClientRun;
  let ccWrote: string | null;
  beforeAll(async () => {
    const repo = join(base, 'repo');
    cc = await runClient('claude', repo);
    ccWrote = existsSync(join(repo, 'out.txt')) ? readFileSync(join(repo, 'out.txt'), 'utf8') : null;
    td = await runClient('teamd', repo);
  }, 240_000);

  it('Claude Code: one streamed POST per turn, the tool ran, a success ending in end_turn', () => {
    expect(cc.code, cc.stderr).toBe(0);
    expect(cc.posts, cc.calls.join('\n')).toBe(3);
    expect(server.requests.filter((r) => r.outcome === 'invalid')).toEqual([]);
    expect(result(cc)).toMatchObject({ is_error: false, stop_reason: 'end_turn', subtype: 'success' });
    const toolResults = cc.events.filter((e) => e.type === 'user').map((e) => JSON.stringify(e.message));
    expect(toolResults.join('\n')).toContain('echo: ping');
    expect(ccWrote).toBe('hi\n');
  });

  it('teamd agent -p: the same conversation, the same outcome', () => {
    expect(td.code, td.stderr).toBe(0);
    expect(td.posts, td.calls.join('\n')).toBe(3);
    expect(result(td)).toMatchObject({ is_error: false, stop_reason: 'end_turn', subtype: 'success' });
    expect(
      td.events
        .filter((e) => e.type === 'user')
        .map((e) => JSON.stringify(e.message))
        .join('\n'),
    ).toContain('echo: ping');
  });

  it('both read CLAUDE.md, the agent file and .mcp.json of the repository', () => {
    for (const run of [cc, td]) {
      expect(run.firstRequest).toContain('Keep answers short.');
      const init = run.events.find((e) => e.type === 'system' && e.subtype === 'init')!;
      expect(init.agents).toEqual(expect.arrayContaining(['reviewer', 'general-purpose']));
      expect(init.mcp_servers).toEqual([expect.objectContaining({ name: 'echo', status: 'connected' })]);
      expect(init.tools).toEqual(expect.arrayContaining(['Bash', 'Task', 'mcp__echo__echo']));
    }
  });

  it('the hooks received the same payloads, field by field (documented exceptions aside)', () => {
    const differences = compareHooks(cc.hooks, td.hooks);
    console.log(`interop hooks: ${differences.length} difference(s)\n  ${differences.join('\n  ')}`);
    expect(cc.hooks.length).toBeGreaterThan(0);
    expect(unexplained(differences, HOOK_EXCEPTIONS)).toEqual([]);
  });

  it('the stream-json outputs agree event by event (documented exceptions aside)', () => {
    const differences = compareStreams(cc.events, td.events);
    console.log(`interop events: ${differences.length} difference(s)\n  ${differences.join('\n  ')}`);
    expect(unexplained(differences, EVENT_EXCEPTIONS)).toEqual([]);
  });
});

describe.skipIf(!claude.ok)('a model call that is retried', () => {
  const scenario: Scenario = {
    script: { steps: [{ content: [{ type: 'text', text: 'Fine.' }] }] },
    faults: [{ kind: 'overloaded' }],
  };
  let cc: ClientRun;
  let td: ClientRun;
  beforeAll(async () => {
    const repo = join(base, 'repo-retry');
    cc = await runClient('claude', repo, scenario);
    td = await runClient('teamd', repo, scenario);
  }, 240_000);

  it('both retry a 529 and print system/api_retry with the same fields, then succeed', () => {
    const retries = (run: ClientRun) =>
      run.events.filter((e) => e.type === 'system' && e.subtype === 'api_retry');
    expect(retries(cc).length, cc.stdout).toBe(1);
    expect(retries(cc)[0]).toMatchObject({ attempt: 1, error_status: 529 });
    expect(retries(td).length, td.stdout).toBe(1);
    expect(retries(td)[0]).toMatchObject({ attempt: 1, error_status: 529 });
    expect(Object.keys(retries(td)[0]!).sort()).toEqual(Object.keys(retries(cc)[0]!).sort());
    for (const run of [cc, td]) expect(result(run)).toMatchObject({ is_error: false, result: 'Fine.' });
  });
});

describe.skipIf(!claude.ok)('print-mode flags: --agents, --fallback-model, --fork-session', () => {
  const flags = ['-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', '--model', MODEL];
  const agents = JSON.stringify({ checker: { description: 'Checks things.', prompt: 'You check.', tools: ['Read'] } });
  type Runs = { first: ProcessRun; fork: ProcessRun; replay: ProcessRun };
  const runs: Partial<Record<'claude' | 'teamd', Runs>> = {};

  async function twice(client: 'claude' | 'teamd'): Promise<Runs> {
    const repo = join(base, `repo-flags-${client}`);
    makeRepo(repo);
    server.setScript({ rules: [{ times: 'always', content: [{ type: 'text', text: 'Fine.' }] }] });
    const home = mkdtempSync(join(base, `home-flags-${client}-`));
    const env = { ...claudeCodeEnv(server.url, home, { ENABLE_TOOL_SEARCH: 'false' }), ANTHROPIC_API_KEY: KEY };
    const run = (args: string[], stdin?: string) =>
      client === 'claude'
        ? runProcess((claude as { bin: string }).bin, args, { cwd: repo, env, ...(stdin ? { stdin } : {}) })
        : runProcess(process.execPath, ['--import', TSX_LOADER, MAIN, 'agent', ...args], {
            cwd: repo,
            env,
            ...(stdin ? { stdin } : {}),
          });
    const first = await run([...flags, '--agents', agents, '--fallback-model', 'claude-haiku-5', 'one']);
    const fork = await run([...flags, '--continue', '--fork-session', 'two']);
    const line = (text: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: text } }) + '\n';
    const replay = await run([...flags, '--input-format', 'stream-json', '--replay-user-messages'], line('three') + line('four'));
    return { first, fork, replay };
  }

  beforeAll(async () => {
    runs.claude = await twice('claude');
    runs.teamd = await twice('teamd');
  }, 240_000);

  it('both take the flags, list the --agents agent in init, and fork a new session from the last one', () => {
    for (const client of ['claude', 'teamd'] as const) {
      const { first, fork } = runs[client]!;
      expect(first.code, `${client}: ${first.stderr}`).toBe(0);
      expect(fork.code, `${client}: ${fork.stderr}`).toBe(0);
      const init = first.events.find((e) => e.type === 'system' && e.subtype === 'init')!;
      expect(init.agents, client).toEqual(expect.arrayContaining(['checker']));
      const old = result(first)!.session_id;
      const forked = result(fork)!;
      expect(forked, client).toMatchObject({ is_error: false, result: 'Fine.' });
      expect(forked.session_id, client).not.toBe(old);
      expect(fork.events.find((e) => e.type === 'system' && e.subtype === 'init')!.session_id, client).toBe(forked.session_id);
    }
  });

  it('--replay-user-messages prints each stdin message back, after init and before its run, with the same fields', () => {
    const shape = (run: ProcessRun) =>
      run.events.map((e) => `${String(e.type)}${typeof e.subtype === 'string' ? `/${e.subtype}` : ''}${e.isReplay ? ':replay' : ''}`);
    const cc = runs.claude!.replay;
    const td = runs.teamd!.replay;
    expect(td.code, td.stderr).toBe(0);
    const replays = (run: ProcessRun) => run.events.filter((e) => e.isReplay === true);
    expect(replays(td).map((e) => (e.message as { content: unknown }).content)).toEqual(['three', 'four']);
    // both print system/init again before each stdin message's run (Claude Code's SessionStart hook lines aside)
    const runsOf = (run: ProcessRun) => shape(run).filter((s) => !s.startsWith('system/hook_'));
    expect(runsOf(td)).toEqual(runsOf(cc));
    expect(runsOf(cc).filter((s) => s === 'system/init')).toHaveLength(2);
    expect(shape(td)[0]).toBe('system/init');
    expect(Object.keys(replays(td)[0]!).sort()).toEqual(Object.keys(replays(cc)[0]!).sort());
  });
});

describe.skipIf(!claude.ok)('--include-partial-messages', () => {
  let cc: ClientRun;
  let td: ClientRun;
  beforeAll(async () => {
    const repo = join(base, 'repo-partial');
    const scenario: Scenario = { faults: [], flags: ['--include-partial-messages'] };
    cc = await runClient('claude', repo, scenario);
    td = await runClient('teamd', repo, scenario);
  }, 240_000);

  it('both stream the same content_block_delta kinds, text and tool input alike, at the same block indexes', () => {
    const deltas = (run: ClientRun) =>
      run.events
        .filter((e) => e.type === 'stream_event' && (e.event as { type?: string }).type === 'content_block_delta')
        .map((e) => {
          const event = e.event as { index: number; delta: { type: string } };
          return `${event.index}:${event.delta.type}`;
        })
        .filter((d, i, all) => all[i - 1] !== d);
    console.log(`interop partial deltas: ${deltas(cc).join(' ')} / teamd: ${deltas(td).join(' ')}`);
    expect(deltas(cc).length, cc.stdout).toBeGreaterThan(0);
    expect(deltas(td)).toEqual(deltas(cc));
    expect(deltas(td)).toContain('0:input_json_delta');
  });

  it('both print the same raw event sequence (message_start … message_stop) around the same messages, tool turns and the text turn alike', () => {
    const sequence = (run: ClientRun) =>
      run.events
        .filter((e) => e.type === 'stream_event' || e.type === 'assistant' || e.type === 'user')
        .map((e) => (e.type === 'stream_event' ? String((e.event as { type?: string }).type) : String(e.type)))
        .filter((t, i, all) => t !== 'content_block_delta' || all[i - 1] !== t);
    console.log(`interop partial sequence: ${sequence(cc).join(' ')}\n  teamd: ${sequence(td).join(' ')}`);
    expect(sequence(cc)).toContain('message_start');
    expect(sequence(td)).toEqual(sequence(cc));
    const fields = (run: ClientRun) =>
      [...new Set(run.events.filter((e) => e.type === 'stream_event').map((e) => Object.keys(e).sort().join(',')))];
    const first = (run: ClientRun) => JSON.stringify(run.events.filter((e) => e.type === 'stream_event').slice(0, 2));
    console.log(`interop partial first events: ${first(cc)}\n  teamd: ${first(td)}`);
    expect(fields(td)).toEqual(fields(cc));
  });

  it('both print one assistant line per block with message_start’s usage; message_delta carries the output tokens', () => {
    type Raw = { message?: { id: string; usage: Record<string, number> }; usage?: Record<string, number> };
    type Line = { id: string; content: unknown[]; usage: Record<string, number>; stop_reason: unknown };
    const raw = (run: ClientRun, type: string) =>
      run.events
        .filter((e) => e.type === 'stream_event' && (e.event as { type?: string }).type === type)
        .map((e) => e.event as Raw);
    const lines = (run: ClientRun) => run.events.filter((e) => e.type === 'assistant').map((e) => e.message as Line);
    for (const run of [cc, td]) {
      const byId = new Map(raw(run, 'message_start').map((e) => [e.message!.id, e.message!.usage]));
      expect(lines(run).every((m) => m.content.length === 1 && m.stop_reason === null)).toBe(true);
      for (const m of lines(run)) expect(m.usage).toEqual(byId.get(m.id));
    }
    const groups = (run: ClientRun) => lines(run).map((m, i, all) => (i > 0 && all[i - 1]!.id === m.id ? 'same' : 'new'));
    expect(groups(td)).toEqual(groups(cc));
    expect(groups(cc)).toContain('same');
    const keys = (run: ClientRun, type: string) =>
      raw(run, type).map((e) => Object.keys(e.message?.usage ?? e.usage ?? {}).sort().join(','));
    expect(keys(td, 'message_start')).toEqual(keys(cc, 'message_start'));
    expect(keys(td, 'message_delta')).toEqual(keys(cc, 'message_delta'));
    const output = (run: ClientRun) => raw(run, 'message_start').map((e) => e.message!.usage.output_tokens);
    expect(output(td)).toEqual(output(cc));
  });
});
