/**
 * `permission_prompt` under `--as`: Claude Code's permission-prompt-tool
 * contract routed to the approvals queue. The ask is a request file that
 * `teamd approve` / `teamd reject` answer (the real CLI, another process);
 * unanswered, it expires into a deny.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MailboxStore } from '../../src/store/mailbox/store.js';
import { listRequests } from '../../src/teammate/requests.js';
import { spawnCli } from '../e2e/support/cli.js';
import { connectStdio, makeMcpRepo, type McpRepo } from './support.js';

let repo: McpRepo;
afterEach(() => repo?.cleanup());

const requestsDir = (dir: string) => join(dir, '.team', 'state', 'requests');

/** Resolves with the first request file's id once one exists (re-checked on each poll of the caller's loop). */
async function pendingRequest(dir: string, timeoutMs = 20_000): Promise<{ id: string; agent: string; tool: string; input: unknown; status: string; task: string | null }> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const files = (() => {
      try {
        return readdirSync(requestsDir(dir)).filter((f) => f.endsWith('.json'));
      } catch {
        return [];
      }
    })();
    if (files[0]) return JSON.parse(readFileSync(join(requestsDir(dir), files[0]), 'utf8')) as never;
    if (Date.now() > end) throw new Error('no request was filed');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const statusOf = (dir: string, id: string): string | undefined => listRequests(dir).find((r) => r.id === id)?.status;

/** Resolves with `check()`'s first truthy value (the writer is another process: re-checked every 50 ms). */
async function until<T>(check: () => T, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function cli(args: string[]): Promise<string> {
  const run = spawnCli(args);
  const code = await run.exited;
  if (code !== 0) throw new Error(`teamd ${args.join(' ')} exited ${code}: ${run.output()}`);
  return run.output();
}

describe('permission_prompt', () => {
  it('files a request that teamd approve answers: allow, with the input', async () => {
    repo = makeMcpRepo();
    writeFileSync(join(repo.dir, '.tasks', 'fix.json'), JSON.stringify({ subject: 'fix', status: 'in_progress', owner: 'worker-1', lease: { owner: 'worker-1', expiresAt: '2099-01-01T00:00:00.000Z' }, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }));
    await using s = await connectStdio(repo.dir, ['--as', 'worker-1']);
    const input = { command: 'rm -rf build' };
    const asked = s.call('permission_prompt', { tool_name: 'Bash', input, tool_use_id: 'toolu_1' });
    const request = await pendingRequest(repo.dir);
    expect(request).toMatchObject({ agent: 'worker-1', tool: 'Bash', input, status: 'pending', task: 'fix' });
    expect(await cli(['approve', request.id, '--dir', repo.dir])).toContain(`approved ${request.id}`);
    const answer = await asked;
    expect(answer.isError).toBe(false);
    expect(JSON.parse(answer.text)).toEqual({ behavior: 'allow', updatedInput: input });
    const lead = await new MailboxStore(repo.dir).peek('lead');
    expect(lead.map((m) => m.type)).toContain('permission_request');
  });

  it('a reject is a deny with the reason', async () => {
    repo = makeMcpRepo();
    await using s = await connectStdio(repo.dir, ['--as', 'worker-2']);
    const asked = s.call('permission_prompt', { tool_name: 'Write', input: { file_path: 'a.txt', content: 'x' }, tool_use_id: 'toolu_2' });
    const request = await pendingRequest(repo.dir);
    await cli(['reject', request.id, '--reason', 'not that file', '--dir', repo.dir]);
    expect(JSON.parse((await asked).text)).toEqual({ behavior: 'deny', message: 'Denied by user: not that file' });
  });

  it('unanswered, it expires into a deny and the request file says expired', async () => {
    repo = makeMcpRepo({ teammates: [{ name: 'worker-1' }], approvalTimeoutMs: 300 });
    await using s = await connectStdio(repo.dir, ['--as', 'worker-1']);
    const answer = await s.call('permission_prompt', { tool_name: 'Bash', input: { command: 'make' }, tool_use_id: 'toolu_3' });
    expect(JSON.parse(answer.text)).toMatchObject({ behavior: 'deny', message: expect.stringContaining('not answered') });
    expect((await pendingRequest(repo.dir)).status).toBe('expired');
  });

  it('a client that goes away (Claude Code exited, or it cancelled the call) leaves no request pending', async () => {
    repo = makeMcpRepo();
    const s = await connectStdio(repo.dir, ['--as', 'worker-1']);
    const cancel = new AbortController();
    const cancelled = s.client.callTool({ name: 'permission_prompt', arguments: { tool_name: 'Bash', input: { command: 'a' }, tool_use_id: 't1' } }, undefined, { signal: cancel.signal });
    const first = await pendingRequest(repo.dir);
    cancel.abort();
    await expect(cancelled).rejects.toThrow();
    await until(() => statusOf(repo.dir, first.id) === 'expired');
    const dropped = s.call('permission_prompt', { tool_name: 'Bash', input: { command: 'b' }, tool_use_id: 't2' }).catch(() => null);
    const second = await until(() => listRequests(repo.dir, 'pending')[0]);
    await s.client.close();
    await dropped;
    await until(() => statusOf(repo.dir, second.id) === 'expired');
  });

  it('exists only under --as', async () => {
    repo = makeMcpRepo();
    await using person = await connectStdio(repo.dir);
    expect((await person.client.listTools()).tools.map((t) => t.name)).not.toContain('permission_prompt');
    await using agent = await connectStdio(repo.dir, ['--as', 'worker-1']);
    expect((await agent.client.listTools()).tools.map((t) => t.name)).toContain('permission_prompt');
  });
});
