/**
 * `teamd mcp` used by the real Claude Code CLI (pinned, offline against the
 * fake Messages API): `npm run test:interop`. Skips with one line when the
 * CLI cannot be installed.
 *
 * 1. Claude Code with `--mcp-config` running `teamd mcp` calls
 *    `mcp__teamd__task_create`; a running team completes and merges the task.
 * 2. Claude Code with `--permission-prompt-tool mcp__teamd__permission_prompt`
 *    and `teamd mcp --as ann` (what the claude-code engine passes): its
 *    Bash ask becomes a request in `teamd approvals`, `teamd approve` answers
 *    it, and the command runs; a `teamd reject` is a deny it reports.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerApproval } from '../../src/cli/approvals.js';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { listRequests } from '../../src/teammate/requests.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from '../e2e/support/harness.js';
import { claudeCodeEnv, ensureClaudeCode } from '../support/claude-code/install.js';
import { TSX_LOADER } from '../support/race/spawn-ts.js';
import { runProcess, type ProcessRun } from './run.js';

const KEY = 'sk-ant-test-offline';
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const claude = ensureClaudeCode();
if (!claude.ok) console.log(`interop (teamd mcp): skipped: ${claude.reason}`);

let server: FakeAnthropicServer;
let base: string;
beforeAll(async () => {
  server = await startFakeAnthropicServer({ apiKey: KEY });
  base = mkdtempSync(join(tmpdir(), 'teamd-interop-mcp-'));
});
afterAll(async () => {
  await server?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

const team = teamPerTest();

/** A `--mcp-config` file: server `teamd` is `teamd mcp --dir <repo> …args`. */
function mcpConfig(repo: string, args: string[]): string {
  const file = join(base, `mcp-${Date.now()}.json`);
  const teamd = { command: process.execPath, args: ['--import', TSX_LOADER, MAIN, 'mcp', '--dir', repo, ...args] };
  writeFileSync(file, JSON.stringify({ mcpServers: { teamd } }));
  return file;
}

function runClaude(repo: string, script: ScriptInput, flags: string[], prompt: string): Promise<ProcessRun> {
  server.setScript(script);
  const home = mkdtempSync(join(base, 'home-'));
  // ENABLE_TOOL_SEARCH=false: the MCP tools are offered directly, not behind ToolSearch
  const env = { ...claudeCodeEnv(server.url, home, { ENABLE_TOOL_SEARCH: 'false' }), ANTHROPIC_API_KEY: KEY };
  const args = ['-p', '--output-format', 'stream-json', '--verbose', '--model', 'claude-opus-5-5', '--strict-mcp-config', ...flags, '--', prompt];
  return runProcess((claude as { bin: string }).bin, args, { cwd: repo, env });
}

const resultOf = (run: ProcessRun) => run.events.findLast((e) => e.type === 'result');
const toolResults = (run: ProcessRun) => run.events.filter((e) => e.type === 'user').map((e) => JSON.stringify(e.message)).join('\n');

/** Answers the first pending request of `agent` as soon as it is filed (polls: the asker is another process). */
async function answerFirst(repo: string, agent: string, approve: boolean, reason?: string): Promise<string> {
  const end = Date.now() + 60_000;
  for (;;) {
    const pending = listRequests(repo, 'pending').find((r) => r.agent === agent);
    if (pending) {
      const r = await answerApproval(repo, pending.id, { approve, by: 'user', reason });
      if (!r.ok) throw new Error(r.error);
      return pending.id;
    }
    if (Date.now() > end) throw new Error(`no request from ${agent} was filed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!claude.ok)(`Claude Code ${claude.ok ? claude.version : ''} with teamd mcp`, () => {
  it('creates a task through mcp__teamd__task_create that a running team completes', async () => {
    const repo = team.repo(makeTeamRepo({ script: genericTaskScript(), config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'per-task' } } }));
    const { lead } = await startLead(repo);
    team.lead(lead);
    const script: ScriptInput = {
      steps: [
        { name: 'create', content: [{ type: 'tool_use', name: 'mcp__teamd__task_create', input: { subject: 'make t1', id: 't1' } }] },
        { name: 'answer', content: [{ type: 'text', text: 'Created t1.' }] },
      ],
    };
    const flags = ['--mcp-config', mcpConfig(repo.dir, []), '--allowedTools', 'mcp__teamd__task_create'];
    const run = await runClaude(repo.dir, script, flags, 'Put "make t1" on the team board as t1.');
    expect(run.code, run.stderr).toBe(0);
    expect(resultOf(run)).toMatchObject({ is_error: false, subtype: 'success' });
    expect(toolResults(run)).toContain('\\"id\\":\\"t1\\"');
    await until(lead, () => lead.tasks.get('t1')?.status === 'completed', 120_000, 't1 completed');
    expect(repo.git('ls-tree', '--name-only', 'teamd/integration', 'out/').trim()).toBe('out/t1.txt');
  });

  it('routes a permission ask through mcp__teamd__permission_prompt to teamd approve', async () => {
    const repo = team.repo(makeTeamRepo({ script: { steps: [] }, config: { teammates: [{ name: 'ann' }] } }));
    const script: ScriptInput = {
      steps: [
        { name: 'bash', content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo hi > out.txt', description: 'Write out.txt' } }] },
        { name: 'answer', content: [{ type: 'text', text: 'Wrote out.txt.' }] },
      ],
    };
    const flags = ['--mcp-config', mcpConfig(repo.dir, ['--as', 'ann']), '--permission-prompt-tool', 'mcp__teamd__permission_prompt'];
    const running = runClaude(repo.dir, script, flags, 'Write hi into out.txt.');
    const id = await answerFirst(repo.dir, 'ann', true);
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(resultOf(run)).toMatchObject({ is_error: false, subtype: 'success' });
    expect(readFileSync(join(repo.dir, 'out.txt'), 'utf8')).toBe('hi\n');
    const request = JSON.parse(readFileSync(join(repo.dir, '.team', 'state', 'requests', `${id}.json`), 'utf8')) as { tool: string; status: string; input: unknown };
    expect(request).toMatchObject({ tool: 'Bash', status: 'approved', input: { command: 'echo hi > out.txt' } });
  });

  it('a teamd reject is a deny Claude Code reports to the model, and nothing runs', async () => {
    const repo = team.repo(makeTeamRepo({ script: { steps: [] }, config: { teammates: [{ name: 'ann' }] } }));
    const script: ScriptInput = {
      steps: [
        { name: 'bash', content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo no > denied.txt', description: 'Write denied.txt' } }] },
        { name: 'answer', content: [{ type: 'text', text: 'It was denied.' }] },
      ],
    };
    const flags = ['--mcp-config', mcpConfig(repo.dir, ['--as', 'ann']), '--permission-prompt-tool', 'mcp__teamd__permission_prompt'];
    const running = runClaude(repo.dir, script, flags, 'Write no into denied.txt.');
    await answerFirst(repo.dir, 'ann', false, 'not in this repository');
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(repo.dir, 'denied.txt'))).toBe(false);
    expect(toolResults(run)).toContain('not in this repository');
    expect(readdirSync(join(repo.dir, '.team', 'state', 'requests'))).toHaveLength(1);
  });
});
