/**
 * The `claude-code` engine with the real Claude Code CLI (pinned, offline
 * against the fake Messages API; skipped with one line when it cannot be
 * installed). `npm run test:interop`.
 *
 * 1. A mixed team: `ann` on teamd's engine (scripted model), `cc` on Claude
 *    Code. ann does t1 and mails cc; cc (t2, after t1) answers a permission
 *    ask through teamd's approvals (`teamd approve`, by the real CLI; its status
 *    shows `waiting` meanwhile), writes
 *    its file, mails ann through `mcp__teamd__send_message`, and finishes
 *    through the merge queue. Its transcript, cost and status are teamd's.
 * 2. A `claude` process killed mid-task is a crashed teammate: the lead
 *    reclaims the task, restarts the teammate, and the task completes.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { listRequests } from '../../src/teammate/requests.js';
import { transcriptsRoot } from '../../src/observe/transcript-view.js';
import { spawnCli } from '../e2e/support/cli.js';
import { makeTeamRepo, startLead, teamPerTest, until, type TeamRepo } from '../e2e/support/harness.js';
import { tasksOnDisk } from '../faults/support/files.js';
import { useFakeEndpoint } from '../support/fake-endpoint.js';
import { claudeCodeEnv, ensureClaudeCode } from '../support/claude-code/install.js';

const claude = ensureClaudeCode();
if (!claude.ok) console.log(`claude-code engine: skipped: ${claude.reason}`);
const home = mkdtempSync(join(tmpdir(), 'teamd-cc-engine-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const team = teamPerTest();
const endpoint = useFakeEndpoint();

/** ann's scripted answers (teamd engine): t1 writes a file and mails cc; mail is noted. */
const annScript: ScriptInput = {
  rules: [
    { conversation: 'Task t1:', turn: 0, content: [{ type: 'tool_use', name: 'write', input: { file_path: 'out/t1.txt', content: 'ann was here\n' } }] },
    { conversation: 'Task t1:', turn: 1, content: [{ type: 'tool_use', name: 'team', input: { do: 'send', to: 'cc', text: 'hello cc, t1 is done' } }] },
    { conversation: 'Task t1:', turn: 2, content: [{ type: 'text', text: 'wrote out/t1.txt' }] },
    { conversation: 'You have new messages', times: 'always', content: [{ type: 'text', text: 'Noted.' }] },
  ],
};

/** What the fake server answers Claude Code (cc): its task, and its mail. */
const ccScript = (extra: ScriptInput['rules'] = []): ScriptInput => ({
  rules: [
    ...(extra ?? []),
    { conversation: 'Task t2:', turn: 0, content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo approved > out-bash.txt', description: 'needs approval' } }] },
    { conversation: 'Task t2:', turn: 1, content: [{ type: 'tool_use', name: 'Write', input: { file_path: '$WT/out/t2.txt', content: 'cc was here\n' } }] },
    { conversation: 'Task t2:', turn: 2, content: [{ type: 'tool_use', name: 'mcp__teamd__send_message', input: { to: 'ann', content: 'hello ann, from Claude Code' } }] },
    { conversation: 'Task t2:', turn: 3, content: [{ type: 'text', text: 'wrote out/t2.txt' }] },
    { conversation: 'You have new messages', times: 'always', content: [{ type: 'text', text: 'Thanks, noted.' }] },
  ],
});

function repoFor(server: FakeAnthropicServer, ccPermissions: Record<string, unknown>, withAnn = true): TeamRepo {
  const env = claudeCodeEnv(server.url, home, { ANTHROPIC_API_KEY: 'test-key' });
  delete env['PATH'];
  return makeTeamRepo({
    script: annScript,
    config: {
      approvalTimeoutMs: 120_000,
      teammates: [
        ...(withAnn ? [{ name: 'ann' }] : []),
        { name: 'cc', engine: 'claude-code', model: 'claude-opus-5-5', permissions: ccPermissions, maxTurns: 10 },
      ],
      claudeCode: { bin: claude.ok ? claude.bin : 'claude', env: env as Record<string, string>, ...(process.env['CC_DEBUG'] ? { args: ['--debug-file', process.env['CC_DEBUG']] } : {}) },
    },
  });
}

function lines(repo: string, agent: string): Record<string, unknown>[] {
  const dir = join(transcriptsRoot(repo), agent);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f: string) => f.endsWith('.jsonl'))
    .flatMap((f: string) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>));
}

/** The state in `agent`'s status file (null while it has none). */
function stateOf(repo: string, agent: string): string | null {
  const file = join(repo, '.team', 'state', 'agents', `${agent}.json`);
  return existsSync(file) ? ((JSON.parse(readFileSync(file, 'utf8')) as { state?: string }).state ?? null) : null;
}

/** Approves every pending request of `agent` with the real `teamd approve`, as a person would. */
async function approvePending(repo: string, agent: string): Promise<string[]> {
  const ids = listRequests(repo, 'pending').filter((r) => r.agent === agent).map((r) => r.id);
  for (const id of ids) {
    const run = spawnCli(['approve', id, '--dir', repo]);
    expect(await run.exited, run.output()).toBe(0);
  }
  return ids;
}

describe.skipIf(!claude.ok)('engine claude-code', () => {
  it('a mixed team finishes a DAG, exchanges mail, and a Claude Code ask is answered through teamd approve', async () => {
    const server = await endpoint.start({ apiKey: 'test-key', script: { rules: [] } });
    const r = team.repo(repoFor(server, { defaultMode: 'acceptEdits', allow: [], deny: [], ask: ['Bash(echo:*)'] }));
    // The Write needs an absolute path in the task's worktree.
    server.setScript(JSON.parse(JSON.stringify(ccScript()).replaceAll('$WT', join(r.dir, '.worktrees', 't2'))) as ScriptInput);
    r.writeTask('t1', { subject: 'ann writes t1', owner: 'ann' });
    r.writeTask('t2', { subject: 'cc writes t2', owner: 'cc', blockedBy: ['t1'] });
    const { lead, events } = await startLead(r);
    team.lead(lead);
    const dump = () => events.map((e) => JSON.stringify(e)).join('\n');
    let approved: string[] = [];
    await until(lead, () => listRequests(r.dir, 'pending').some((q) => q.agent === 'cc'), 120_000, 'a permission ask from cc').catch((e: Error) => {
      throw new Error(`${e.message}\n${dump()}\n${JSON.stringify(server.requests.map((q) => q.outcome))}`);
    });
    // The ask is filed by `teamd mcp --as cc`, another process; cc's status shows it waits, and works on after the answer.
    await until(lead, () => stateOf(r.dir, 'cc') === 'waiting', 10_000, "cc's status shows waiting");
    approved = await approvePending(r.dir, 'cc');
    expect(approved).toHaveLength(1);
    await until(lead, () => stateOf(r.dir, 'cc') !== 'waiting', 10_000, "cc's status back from waiting");
    const done = () => ['t1', 't2'].every((id) => tasksOnDisk(r.dir).get(id)?.status === 'completed');
    await until(lead, done, 180_000, 't1 and t2 completed').catch((e: Error) => {
      throw new Error(`${e.message}\n${dump()}`);
    });

    expect(r.git('show', 'teamd/integration:out/t2.txt')).toBe('cc was here\n');
    expect(r.git('show', 'teamd/integration:out-bash.txt')).toBe('approved\n');
    expect(listRequests(r.dir).find((q) => q.id === approved[0])).toMatchObject({ status: 'approved', kind: 'permission', tool: 'Bash' });
    const sent = events.filter((e) => e.type === 'message_sent') as unknown as { from: string; to: string }[];
    expect(sent.some((m) => m.from === 'ann' && m.to === 'cc')).toBe(true);
    const archive = (a: string) => (existsSync(join(r.dir, '.mailboxes', 'archive', `${a}.jsonl`)) ? readFileSync(join(r.dir, '.mailboxes', 'archive', `${a}.jsonl`), 'utf8') : '');
    expect(archive('ann')).toContain('hello ann, from Claude Code');
    expect(archive('cc')).toContain('hello cc, t1 is done');
    const cc = lines(r.dir, 'cc');
    expect(cc[0]).toMatchObject({ type: 'header', agent: 'cc', model: 'claude-opus-5-5' });
    expect(cc.some((l) => l['type'] === 'assistant')).toBe(true);
    const results = cc.filter((l) => l['type'] === 'result');
    expect(results.at(-1)).toMatchObject({ subtype: 'success', usage: { 'claude-opus-5-5': expect.any(Object) } });
    expect(results.reduce((a, l) => a + (l['total_cost_usd'] as number), 0)).toBeGreaterThan(0);
    const status = JSON.parse(readFileSync(join(r.dir, '.team', 'state', 'agents', 'cc.json'), 'utf8')) as { costUsd: number; turns: number };
    expect(status.costUsd).toBeGreaterThan(0);
    const logs = spawnCli(['logs', 'cc', '--dir', r.dir]);
    expect(await logs.exited).toBe(0);
    expect(logs.output()).toContain('wrote out/t2.txt');
    for (const args of [['cost'], ['cost', '--tokens']]) {
      const cost = spawnCli([...args, '--dir', r.dir]);
      expect(await cost.exited, cost.output()).toBe(0);
      expect(cost.output()).toMatch(/\bcc\b/);
    }
  });

  it('a killed claude process is a crashed teammate: the task is reclaimed and done after the restart', async () => {
    const server = await endpoint.start({ apiKey: 'test-key', script: { rules: [] } });
    // cc alone: a reclaimed task goes back to the board, where another teammate could take it.
    const r = team.repo(repoFor(server, { defaultMode: 'bypassPermissions', allow: [], deny: [], ask: [] }, false));
    server.setScript({
      rules: [
        { conversation: 'Task t3:', turn: 0, times: 1, content: [{ type: 'tool_use', name: 'Bash', input: { command: 'node -e "setTimeout(() => {}, 60000)"', description: 'a long one' } }] },
        { conversation: 'Task t3:', times: 'always', content: [{ type: 'text', text: 'done t3 the second time' }] },
      ],
    });
    r.writeTask('t3', { subject: 'cc does t3', owner: 'cc' });
    const { lead, events } = await startLead(r);
    team.lead(lead);
    const pidOf = () => {
      const e = events.find((x) => x.type === 'notice' && /claude-code: pid \d+/.test(String((x as { message?: string }).message)));
      return e ? Number(/pid (\d+)/.exec((e as { message: string }).message)![1]) : null;
    };
    // The model has answered with a minute-long command: the process is in the middle of its turn.
    await until(lead, () => pidOf() !== null && server.requests.some((q) => q.outcome === 'answered'), 120_000, 'claude got its first answer').catch((e: Error) => {
      throw new Error(`${e.message}\n${events.map((x) => JSON.stringify(x)).join('\n')}`);
    });
    process.kill(pidOf()!, 'SIGKILL');
    await until(lead, () => events.some((e) => e.type === 'teammate_crashed' && (e as { agent?: string }).agent === 'cc'), 60_000, 'cc crashed').catch((e: Error) => {
      throw new Error(`${e.message}\n${events.map((x) => JSON.stringify(x)).join('\n')}\n${JSON.stringify(server.requests.map((q) => q.outcome))}`);
    });
    await until(lead, () => tasksOnDisk(r.dir).get('t3')?.status === 'completed', 180_000, 't3 completed after the restart').catch((e: Error) => {
      throw new Error(`${e.message}\n${events.map((x) => JSON.stringify(x)).join('\n')}`);
    });
    expect(events.some((e) => e.type === 'teammate_restarted' && (e as { agent?: string }).agent === 'cc')).toBe(true);
    expect(tasksOnDisk(r.dir).get('t3')!.attempts).toBeGreaterThanOrEqual(1);
  });
});
