/**
 * `--permission-prompt-tool mcp__gate__approve` with the real Claude Code CLI
 * and with `teamd agent -p`, on the same repository and conversation: an MCP
 * server of our own (scripts.ts `gateMcpServer`) allows one Bash call as it
 * is, allows one with a changed command (`updatedInput`) and denies one. The
 * arguments the tool receives, and what each client does with each answer
 * (the command run, the tool result, the result's `permission_denials`),
 * must agree.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { claudeCodeEnv, ensureClaudeCode } from '../support/claude-code/install.js';
import { TSX_LOADER } from '../support/race/spawn-ts.js';
import { makeRepo } from './repo.js';
import { runProcess, type ProcessRun } from './run.js';
import { gateMcpServer } from './scripts.js';

const KEY = 'sk-ant-test-offline';
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const claude = ensureClaudeCode();
if (!claude.ok) console.log(`interop: skipped: ${claude.reason}`);

const COMMANDS = ['echo a > a.txt', 'echo rewrite > x.txt', 'echo deny > d.txt'];
const conversation = (bash: string): ScriptInput => ({
  steps: [
    ...COMMANDS.map((command, i) => ({
      content: [{ type: 'tool_use' as const, name: bash, input: { command, description: `Step ${i + 1}` } }],
    })),
    { content: [{ type: 'text', text: 'Done.' }] },
  ],
});

type Json = Record<string, unknown>;
interface GateRun extends ProcessRun {
  /** The arguments of each call of the permission tool. */
  asks: Json[];
  files: Record<string, string | null>;
}

let server: FakeAnthropicServer;
let base: string;
beforeAll(async () => {
  server = await startFakeAnthropicServer({ apiKey: KEY });
  base = mkdtempSync(join(tmpdir(), 'teamd-interop-gate-'));
});
afterAll(async () => {
  await server?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

async function runClient(client: 'claude' | 'teamd'): Promise<GateRun> {
  const repo = join(base, 'repo');
  makeRepo(repo);
  writeFileSync(join(repo, 'tools', 'gate-mcp.mjs'), gateMcpServer());
  const gateLog = join(base, `gate-${client}.jsonl`);
  // the log's path as an argument: teamd starts stdio servers with the SDK's default environment only
  const mcp = { mcpServers: { gate: { command: process.execPath, args: ['tools/gate-mcp.mjs', gateLog] } } };
  writeFileSync(join(repo, '.mcp.json'), JSON.stringify(mcp, null, 2));
  server.setScript(conversation(client === 'claude' ? 'Bash' : 'bash'));
  const home = mkdtempSync(join(base, `home-${client}-`));
  const extra = { INTEROP_HOOK_LOG: join(base, `hooks-${client}.jsonl`), ENABLE_TOOL_SEARCH: 'false' };
  const env = { ...claudeCodeEnv(server.url, home, extra), ANTHROPIC_API_KEY: KEY };
  const flags = ['-p', '--output-format', 'stream-json', '--verbose', '--model', 'claude-opus-5-5'];
  const gate = [
    '--permission-mode',
    'default',
    '--permission-prompt-tool',
    'mcp__gate__approve',
    'Run the three steps.',
  ];
  const run =
    client === 'claude'
      ? await runProcess((claude as { bin: string }).bin, [...flags, ...gate], { cwd: repo, env })
      : await runProcess(process.execPath, ['--import', TSX_LOADER, MAIN, 'agent', ...flags, ...gate], {
          cwd: repo,
          env,
        });
  const asks = existsSync(gateLog)
    ? readFileSync(gateLog, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Json)
    : [];
  const read = (name: string) =>
    existsSync(join(repo, name)) ? readFileSync(join(repo, name), 'utf8') : null;
  const files = Object.fromEntries(['a.txt', 'x.txt', 'r.txt', 'd.txt'].map((f) => [f, read(f)]));
  if (process.env.INTEROP_DUMP) {
    writeFileSync(join(process.env.INTEROP_DUMP, `gate-events-${client}.jsonl`), run.stdout);
    writeFileSync(join(process.env.INTEROP_DUMP, `gate-asks-${client}.json`), JSON.stringify(asks, null, 1));
  }
  return { ...run, asks, files };
}

const toolResults = (run: ProcessRun) =>
  run.events
    .filter((e) => e.type === 'user')
    .flatMap((e) =>
      ((e.message as { content: Json[] }).content ?? []).filter((b) => b.type === 'tool_result'),
    );
const toolUses = (run: ProcessRun) =>
  run.events
    .filter((e) => e.type === 'assistant')
    .flatMap((e) => ((e.message as { content: Json[] }).content ?? []).filter((b) => b.type === 'tool_use'));
const result = (run: ProcessRun) => run.events.findLast((e) => e.type === 'result');

describe.skipIf(!claude.ok)('--permission-prompt-tool: an MCP tool allows, rewrites and denies', () => {
  let cc: GateRun;
  let td: GateRun;
  beforeAll(async () => {
    cc = await runClient('claude');
    td = await runClient('teamd');
    console.log(`interop gate asks: ${JSON.stringify(cc.asks)}\n  teamd: ${JSON.stringify(td.asks)}`);
    console.log(
      `interop gate results: ${JSON.stringify(toolResults(cc))}\n  teamd: ${JSON.stringify(toolResults(td))}`,
    );
    console.log(
      `interop gate denials: ${JSON.stringify(result(cc)?.permission_denials)}\n  teamd: ${JSON.stringify(result(td)?.permission_denials)}`,
    );
  }, 240_000);

  it('both ask the tool once per call with the same arguments: tool_name, input, tool_use_id', () => {
    expect(cc.code, cc.stderr).toBe(0);
    expect(td.code, td.stderr).toBe(0);
    expect(cc.asks).toHaveLength(3);
    expect(td.asks.map((a) => Object.keys(a).sort())).toEqual(cc.asks.map((a) => Object.keys(a).sort()));
    const named = (asks: Json[]) => asks.map((a) => ({ tool_name: a.tool_name, input: a.input }));
    expect(named(td.asks)).toEqual(named(cc.asks));
    for (const run of [cc, td])
      expect(run.asks.map((a) => a.tool_use_id)).toEqual(toolUses(run).map((b) => b.id));
  });

  it('both run the allowed call, the rewritten command instead of the model’s, and not the denied one', () => {
    const expected = { 'a.txt': 'a\n', 'x.txt': null, 'r.txt': 'rewritten\n', 'd.txt': null };
    expect(cc.files).toEqual(expected);
    expect(td.files).toEqual(expected);
    for (const run of [cc, td]) expect(result(run)).toMatchObject({ is_error: false, subtype: 'success' });
  });

  it('the denied call: the same error tool result and the same permission_denials entry', () => {
    const denied = (run: ProcessRun) => toolResults(run).filter((b) => b.is_error === true);
    expect(denied(cc)).toHaveLength(1);
    expect(denied(td).map((b) => b.content)).toEqual(denied(cc).map((b) => b.content));
    const denials = (run: ProcessRun) =>
      (result(run)!.permission_denials as Json[]).map((d) => ({
        keys: Object.keys(d).sort(),
        tool_name: d.tool_name,
        tool_input: d.tool_input,
      }));
    expect(denials(td)).toEqual(denials(cc));
  });
});
