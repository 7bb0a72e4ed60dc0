/**
 * A Claude Code teammate shows `waiting` while a permission ask filed in its
 * name (by `teamd mcp --as`, another process) is pending, and `working` again
 * after the answer. The session runs a stand-in for the CLI (a node script
 * speaking stream-json) and the asks are real request files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { watchingAsks, watchOwnAsks } from '../../../../src/teammate/engines/claude-code/asks.js';
import { ClaudeCodeSession } from '../../../../src/teammate/engines/claude-code/session.js';
import { newRequestId, saveRequest, type PendingRequest } from '../../../../src/teammate/requests.js';

const dir = mkdtempSync(join(tmpdir(), 'teamd-cc-asks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Echoes every stdin line as a replay; the second one of a turn ends it with a result. */
const standIn = join(dir, 'stand-in.mjs');
writeFileSync(standIn, `import { createInterface } from 'node:readline';
let n = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  process.stdout.write(JSON.stringify({ ...JSON.parse(line), isReplay: true }) + '\\n');
  if (++n % 2 === 0) process.stdout.write(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'ok', total_cost_usd: 0 }) + '\\n');
});
`);

function ask(agent: string, status: PendingRequest['status'] = 'pending'): PendingRequest {
  const now = new Date().toISOString();
  return { id: newRequestId('permission'), kind: 'permission', agent, task: 't1', tool: 'Bash', input: { command: 'ls' }, summary: 'Bash ls', status, createdAt: now, expiresAt: null, answer: null };
}

const answered = (r: PendingRequest): PendingRequest => ({ ...r, status: 'approved', answer: { by: 'user', reason: '', at: new Date().toISOString() } });

it('shows waiting while its own ask is pending during a turn, and working after the answer', async () => {
  const repo = mkdtempSync(join(dir, 'repo-'));
  const shown: boolean[] = [];
  const inner = new ClaudeCodeSession({
    bin: process.execPath, args: [standIn], cwd: repo, env: process.env, agent: 'cc', model: 'claude-opus-5-5',
    parentId: 't1', transcriptDir: join(repo, 'transcripts'), onEvent: () => undefined, notice: () => undefined,
  });
  const session = watchingAsks(inner, { repoRoot: repo, agent: 'cc', onWaiting: (w) => shown.push(w) });
  const turn = session.submit('Task t1: anything');
  await saveRequest(repo, ask('ann')); // another teammate's ask is not cc's
  await saveRequest(repo, ask('cc', 'expired'));
  const mine = ask('cc');
  await saveRequest(repo, mine);
  await vi.waitFor(() => expect(shown).toEqual([true]), { timeout: 5_000, interval: 20 });
  await saveRequest(repo, answered(mine));
  await vi.waitFor(() => expect(shown).toEqual([true, false]), { timeout: 5_000, interval: 20 });
  session.enqueue('go on');
  expect(await turn).toMatchObject({ type: 'result', subtype: 'success' });
  await session.close();
  expect(shown).toEqual([true, false]);
});

it('an ask still pending when the watch ends is taken back; none is seen outside a turn', async () => {
  const repo = mkdtempSync(join(dir, 'repo-'));
  const shown: boolean[] = [];
  await saveRequest(repo, ask('cc'));
  const watch = watchOwnAsks({ repoRoot: repo, agent: 'cc', onWaiting: (w) => shown.push(w) });
  expect(shown).toEqual([true]);
  watch.close();
  expect(shown).toEqual([true, false]);
  await saveRequest(repo, ask('cc'));
  watch.check();
  expect(shown).toEqual([true, false]);
});
