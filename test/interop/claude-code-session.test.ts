/**
 * `ClaudeCodeSession` on the real Claude Code CLI (pinned, offline against the
 * fake Messages API), without a team: a turn with mail written to stdin while
 * a command runs (taken in at the next step, one result for both), a second
 * turn priced as the difference of the CLI's running totals, the transcript,
 * and an interrupt that ends a turn with no result (not a crash).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/types.js';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import { claudeArgs } from '../../src/teammate/engines/claude-code/args.js';
import { ClaudeCodeSession } from '../../src/teammate/engines/claude-code/session.js';
import { claudeCodeEnv, ensureClaudeCode } from '../support/claude-code/install.js';

const claude = ensureClaudeCode();
if (!claude.ok) console.log(`claude-code session: skipped: ${claude.reason}`);
let server: FakeAnthropicServer;
let base: string;
beforeAll(async () => {
  server = await startFakeAnthropicServer({ apiKey: 'sk-ant-test-offline' });
  base = mkdtempSync(join(tmpdir(), 'teamd-cc-session-'));
});
afterAll(async () => {
  await server?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

function session(name: string, events: AgentEvent[], notices: string[]): ClaudeCodeSession {
  const cwd = join(base, name);
  execFileSync('git', ['init', '-q', cwd]);
  const args = claudeArgs({
    name: 'cc', model: 'claude-opus-5-5', maxTurns: 5, role: 'test', mcpConfig: null, readOnly: false, extra: [],
    permissions: { defaultMode: 'bypassPermissions', allow: [], deny: [], ask: [] },
  });
  return new ClaudeCodeSession({
    bin: claude.ok ? claude.bin : 'claude', args, cwd, env: claudeCodeEnv(server.url, join(base, `${name}-home`)),
    agent: 'cc', model: 'claude-opus-5-5', parentId: 'task-x', transcriptDir: join(base, `${name}-transcripts`),
    onEvent: (e) => events.push(e), notice: (m) => notices.push(m),
  });
}

describe.skipIf(!claude.ok)('ClaudeCodeSession', () => {
  it('mail written mid-turn is taken in at the next step; the next turn costs only its own part', async () => {
    server.setScript({
      rules: [
        { match: 'MAIL from ann', times: 1, content: [{ type: 'text', text: 'read the mail too' }] },
        { conversation: 'first task', turn: 0, content: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 3', description: 'wait' } }] },
        { match: 'second turn', content: [{ type: 'text', text: 'second done' }] },
      ],
    });
    const events: AgentEvent[] = [];
    const notices: string[] = [];
    const s = session('mail', events, notices);
    const first = s.submit('first task');
    // Once the command runs, mail arrives.
    await new Promise<void>((resolve) => {
      const t = setInterval(() => events.some((e) => e.type === 'assistant') && (clearInterval(t), resolve()), 50);
    });
    s.enqueue('MAIL from ann: hello');
    const r1 = await first;
    expect(r1).toMatchObject({ subtype: 'success', result: 'read the mail too', depth: 0, parent_id: 'task-x' });
    const replays = events.filter((e) => e.type === 'user' && (e as { isReplay?: boolean }).isReplay);
    expect(replays.map((e) => JSON.stringify((e as { message: unknown }).message))).toEqual([expect.stringContaining('first task'), expect.stringContaining('MAIL from ann')]);
    const r2 = await s.submit('second turn');
    expect(r2).toMatchObject({ subtype: 'success', result: 'second done' });
    const results = events.filter((e) => e.type === 'result');
    expect(results).toHaveLength(2);
    expect(r2!.total_cost_usd).toBeGreaterThan(0);
    expect(r2!.total_cost_usd).toBeLessThan(r1!.total_cost_usd); // its own part only, not the session's total
    await s.close();
    const dir = join(base, 'mail-transcripts');
    const lines = readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>));
    expect(lines[0]).toMatchObject({ type: 'header', agent: 'cc', session_id: s.sessionId });
    expect(lines.filter((l) => l['type'] === 'result').map((l) => l['subtype'])).toEqual(['success', 'success']);
    expect(notices.filter((n) => n.includes('ignored'))).toEqual([]);
  });

  it('an interrupt ends the turn with no result, and is no crash', async () => {
    server.setScript({ rules: [{ conversation: 'long task', content: [{ type: 'tool_use', name: 'Bash', input: { command: 'node -e "setTimeout(() => {}, 60000)"', description: 'long' } }] }] });
    const events: AgentEvent[] = [];
    const s = session('interrupt', events, []);
    const turn = s.submit('long task');
    await new Promise<void>((resolve) => {
      const t = setInterval(() => events.some((e) => e.type === 'assistant') && (clearInterval(t), resolve()), 50);
    });
    s.interrupt();
    await expect(turn).resolves.toBeNull();
    await s.close();
  });
});
