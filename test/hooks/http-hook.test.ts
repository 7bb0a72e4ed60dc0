import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { httpHookUrlAllowed, interpolateHeader } from '../../src/hooks/http-hook.js';
import { createHookRunner } from '../../src/hooks/runner.js';
import type { HookFailure, HookHttp, HookSettings } from '../../src/hooks/types.js';

interface Seen {
  headers: IncomingMessage['headers'];
  body: unknown;
}
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A real loopback server answering every POST with `answer`; records what it received. */
async function serve(answer: (res: ServerResponse) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: JSON.parse(body) });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen };
}
const json = (status: number, value: unknown) => (res: ServerResponse) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
const pre = (hook: Omit<HookHttp, 'type'>): HookSettings => ({
  PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', ...hook }] }],
});
const bashCall = { tool_name: 'bash', tool_input: { command: 'rm -rf build' }, tool_use_id: 'tu_1' };

describe('http hooks', () => {
  it('POSTs the event JSON, with only the listed variables in headers, and reads a JSON decision', async () => {
    const deny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm' } };
    const { url, seen } = await serve(json(200, deny));
    const runner = createHookRunner(
      pre({ url, headers: { Authorization: 'Bearer $TOKEN', 'X-Other': 'a${SECRET}b' }, allowedEnvVars: ['TOKEN'] }),
      { cwd: '/tmp', sessionId: 's1', env: { TOKEN: 'tok', SECRET: 'leak' } },
    );
    const outcome = await runner.run('PreToolUse', bashCall, { matchValue: 'bash' });
    expect(outcome).toMatchObject({ blocked: true, permissionDecision: 'deny', reason: 'no rm' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.authorization).toBe('Bearer tok');
    expect(seen[0]!.headers['x-other']).toBe('ab');
    expect(seen[0]!.body).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', session_id: 's1', cwd: '/tmp' });
  });

  it('takes an empty 2xx as no say, and a non-2xx, a non-JSON body or a dead server as a reported non-blocking error', async () => {
    const empty = await serve((res) => res.writeHead(204).end());
    expect(await createHookRunner(pre({ url: empty.url }), { cwd: '/tmp' }).run('PreToolUse', bashCall)).toMatchObject({
      blocked: false,
      continue: true,
    });
    await new Promise((resolve) => server!.close(resolve));
    for (const answer of [json(500, { decision: 'block' }), (res: ServerResponse) => res.end('plain words'), json(302, {})]) {
      const { url } = await serve(answer);
      const failures: HookFailure[] = [];
      const outcome = await createHookRunner(pre({ url }), { cwd: '/tmp', onFailure: (f) => failures.push(f) }).run(
        'PreToolUse',
        bashCall,
      );
      expect(outcome.blocked).toBe(false);
      expect(outcome.results[0]!.exitCode).toBe(1);
      expect(failures[0]!.message).toContain(`POST ${url}`);
      server!.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
    }
    const failures: HookFailure[] = [];
    const dead = await createHookRunner(pre({ url: 'http://127.0.0.1:9/none' }), {
      cwd: '/tmp',
      onFailure: (f) => failures.push(f),
    }).run('PreToolUse', bashCall);
    expect(dead).toMatchObject({ blocked: false });
    expect(failures[0]!.message).toMatch(/could not start.*could not be reached/);
  });

  it('times out a server that never answers', async () => {
    const { url } = await serve(() => undefined);
    const outcome = await createHookRunner(pre({ url, timeout: 0.3 }), { cwd: '/tmp' }).run('PreToolUse', bashCall);
    expect(outcome.results[0]).toMatchObject({ timedOut: true, exitCode: null });
    expect(outcome.blocked).toBe(false);
  });

  it('never sends to a host that is not loopback unless allowedHttpHookUrls lists it', async () => {
    const failures: HookFailure[] = [];
    const outcome = await createHookRunner(pre({ url: 'http://10.1.2.3/hook' }), {
      cwd: '/tmp',
      onFailure: (f) => failures.push(f),
    }).run('PreToolUse', bashCall);
    expect(outcome.results[0]).toMatchObject({ exitCode: 1, notStarted: true });
    expect(failures[0]!.message).toContain('allowedHttpHookUrls');
    expect(httpHookUrlAllowed('https://hooks.example.com/a', ['https://hooks.example.com/*'])).toBe(true);
    expect(httpHookUrlAllowed('https://hooks.example.com.evil.net/a', ['https://hooks.example.com/*'])).toBe(false);
    for (const url of ['http://localhost:1/x', 'http://127.0.0.5/x', 'http://[::1]:8/x'])
      expect(httpHookUrlAllowed(url)).toBe(true);
    for (const url of ['file:///etc/passwd', 'http://127.0.0.1.nip.io/x', 'http://0x7f000001/x', 'not a url'])
      expect(httpHookUrlAllowed(url), url).toBe(url === 'http://0x7f000001/x');
  });

  it('interpolates a header with listed variables only (generated)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('A', 'B', 'C_1'),
        fc.string({ maxLength: 12 }).filter((s) => !s.includes('$')),
        fc.boolean(),
        (name, value, listed) => {
          const env = { [name]: value, OTHER: 'never' };
          const out = interpolateHeader(`x-$${name}-\${${name}}-$OTHER`, listed ? [name] : [], env);
          expect(out).toBe(listed ? `x-${value}-${value}-` : 'x---');
        },
      ),
    );
  });
});
