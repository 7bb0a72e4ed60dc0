/**
 * Needs-you notifications through real channels: a webhook received by an
 * HTTP server on 127.0.0.1, a desktop notification by a stand-in `notify-send`
 * script (a real process writing its arguments to a file), and the bell.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { createNotifier, needsYou, type WebhookPayload } from '../../src/notify/index.js';
import type { LoggedEvent, TeamEvent } from '../../src/observe/types.js';
import { waitFor } from '../dashboard/support/fake-terminal.js';

const at = (e: TeamEvent): LoggedEvent => ({ ts: '2026-11-29T10:00:00.000Z', ...e });

const ROUTINE: TeamEvent[] = [
  { type: 'daemon_started', pid: 1, teammates: ['w'] },
  { type: 'task_claimed', task: 't', agent: 'w', attempt: 1 },
  { type: 'task_completed', task: 't', agent: 'w', summary: 'ok' },
  { type: 'task_reclaimed', task: 't', previousOwner: 'w', attempts: 1, failed: false },
  { type: 'message_sent', id: 'm', from: 'w', to: 'lead', messageType: 'message' },
  { type: 'merge_merged', task: 't', commit: 'abc' },
  { type: 'teammate_state', agent: 'w', state: 'idle', task: null },
  { type: 'teammate_restarted', agent: 'w', restarts: 1 },
  { type: 'approval_answered', requestId: 'r', agent: 'w', approved: true, by: 'user' },
  { type: 'notice', message: 'hello' },
  // An outage pause resumes by itself after its wait.
  {
    type: 'team_paused',
    kind: 'outage',
    reason: 'the model endpoint is failing',
    until: '2026-11-29T10:01:00.000Z',
  },
  { type: 'team_resumed', by: 'teamd resume' },
];

const NEEDS_YOU: [TeamEvent, string][] = [
  [
    {
      type: 'approval_requested',
      requestId: 'perm-1',
      agent: 'worker-1',
      kind: 'permission',
      summary: 'bash: rm -rf build',
    },
    'approval',
  ],
  [{ type: 'task_failed', task: 'parser', agent: 'worker-1', error: 'tests fail' }, 'task_failed'],
  [
    { type: 'task_reclaimed', task: 'parser', previousOwner: 'worker-1', attempts: 3, failed: true },
    'task_failed',
  ],
  [
    {
      type: 'teammate_crashed',
      agent: 'worker-2',
      error: 'heap out of memory',
      restartInMs: 2000,
      restarts: 1,
    },
    'teammate_died',
  ],
  [{ type: 'teammate_state', agent: 'worker-2', state: 'dead', task: 'docs' }, 'teammate_died'],
  [{ type: 'team_finished', completed: 4, failed: 1, cancelled: 0 }, 'team_finished'],
  [
    { type: 'team_paused', kind: 'auth', reason: 'model authentication failed: invalid x-api-key' },
    'team_paused',
  ],
  [{ type: 'team_paused', kind: 'budget', reason: 'the team budget of $5.00 is spent' }, 'team_paused'],
];

describe('needsYou', () => {
  it('picks approvals, failures, deaths and the end of the team; nothing routine', () => {
    for (const e of ROUTINE) expect(needsYou(at(e))).toBeNull();
    for (const [e, kind] of NEEDS_YOU) expect(needsYou(at(e))?.kind).toBe(kind);
    expect(needsYou(at(NEEDS_YOU[0]![0]))).toMatchObject({
      title: 'teamd: worker-1 waits for permission',
      text: 'bash: rm -rf build\nteamd approve perm-1  /  teamd reject perm-1',
      agent: 'worker-1',
    });
  });
});

/** An HTTP server on 127.0.0.1 that records POSTs and answers with `reply`. */
function webhookServer(reply: (req: IncomingMessage, res: ServerResponse) => void = (_q, s) => s.end('ok')) {
  const received: { path: string; headers: IncomingMessage['headers']; body: WebhookPayload }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(body) as WebhookPayload });
      reply(req, res);
    });
  });
  const listening = new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { received, listening, close };
}

const config = (webhook?: string, desktop = false) =>
  TeamConfigSchema.parse({ notifications: { ...(webhook ? { webhook } : {}), desktop } });

describe('a pause', () => {
  let server: ReturnType<typeof webhookServer> | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('a refused key or a spent budget posts once, saying why and how to go on', async () => {
    server = webhookServer();
    const url = `${await server.listening}/hook`;
    const errors: string[] = [];
    const notifier = createNotifier(config(url), {
      repoRoot: '/work/repo',
      bell: () => {},
      onError: (m) => errors.push(m),
    });
    const reason =
      'the team budget of $5.00 is spent; raise maxBudgetUsd in .team/config.json and run `teamd resume`';
    expect(notifier.onEvent(at({ type: 'team_paused', kind: 'budget', reason }))?.kind).toBe('team_paused');
    await notifier.flush();
    expect(errors).toEqual([]);
    expect(server.received.map((r) => r.body)).toMatchObject([
      {
        kind: 'team_paused',
        title: 'teamd: the team is paused (budget)',
        text: expect.stringContaining(reason),
      },
    ]);
    expect(server.received[0]!.body.text).toContain('teamd resume');
  });
});

describe('the webhook', () => {
  let server: ReturnType<typeof webhookServer> | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('receives one JSON POST per needs-you event, none for routine ones', async () => {
    server = webhookServer();
    const url = `${await server.listening}/hooks/T000/secret-token`;
    const errors: string[] = [];
    let bells = 0;
    const notifier = createNotifier(config(url), {
      repoRoot: '/work/repo',
      bell: () => bells++,
      onError: (m) => errors.push(m),
    });
    for (const e of ROUTINE) expect(notifier.onEvent(at(e))).toBeNull();
    const failed = at({
      type: 'task_failed',
      task: 'parser',
      agent: 'worker-1',
      error: 'tests fail\nstack…',
    });
    expect(notifier.onEvent(failed)?.kind).toBe('task_failed');
    await notifier.flush();
    expect(errors).toEqual([]);
    expect(bells).toBe(1);
    expect(server.received).toHaveLength(1);
    const [hit] = server.received;
    expect(hit!.path).toBe('/hooks/T000/secret-token');
    expect(hit!.headers['content-type']).toBe('application/json');
    expect(hit!.body).toEqual({
      source: 'teamd',
      kind: 'task_failed',
      title: 'teamd: task parser failed',
      text: 'teamd: task parser failed\nworker-1: tests fail',
      repo: '/work/repo',
      agent: 'worker-1',
      task: 'parser',
      ts: '2026-11-29T10:00:00.000Z',
      event: failed,
    });
  });

  it('reports a refused connection, an error status and a timeout without throwing or leaking the URL path', async () => {
    server = webhookServer((req, res) => {
      if (req.url === '/500') res.writeHead(500, 'Internal Server Error').end();
      // '/slow' never answers
    });
    const base = await server.listening;
    const errors: string[] = [];
    const finished = at({ type: 'team_finished', completed: 1, failed: 0, cancelled: 0 });
    for (const path of ['/500', '/slow']) {
      const notifier = createNotifier(config(`${base}${path}`), {
        webhookTimeoutMs: 300,
        onError: (m) => errors.push(m),
      });
      notifier.onEvent(finished);
      await notifier.flush();
    }
    const gone = webhookServer();
    const goneBase = await gone.listening;
    await gone.close();
    const closed = createNotifier(config(`${goneBase}/secret`), { onError: (m) => errors.push(m) });
    closed.onEvent(finished);
    await closed.flush();
    expect(errors).toEqual([
      `webhook ${base} answered 500 Internal Server Error`,
      `webhook ${base} failed: no answer within 300 ms`,
      `webhook ${goneBase} failed: ECONNREFUSED`,
    ]);
  });

  it('onEvent returns at once: a slow webhook never holds the caller', async () => {
    server = webhookServer(() => undefined);
    const notifier = createNotifier(config(await server.listening), {
      webhookTimeoutMs: 500,
      onError: () => undefined,
    });
    const started = performance.now();
    notifier.onEvent(at({ type: 'team_finished', completed: 1, failed: 0, cancelled: 0 }));
    expect(performance.now() - started).toBeLessThan(50);
    await notifier.flush();
  });
});

describe('desktop notifications', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'teamd-notify-send-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs notify-send with a title and text when desktop is on', async () => {
    const script = join(dir, 'notify-send');
    const out = join(dir, 'args');
    writeFileSync(script, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${out}'\n`);
    chmodSync(script, 0o755);
    const notifier = createNotifier(config(undefined, true), {
      desktopCommand: script,
      onError: (m) => expect.fail(m),
    });
    notifier.onEvent(
      at({
        type: 'teammate_crashed',
        agent: 'worker-2',
        error: 'heap out of memory',
        restartInMs: 2000,
        restarts: 1,
      }),
    );
    await waitFor(() => existsSync(out) && readFileSync(out, 'utf8').endsWith('\n'), 'notify-send to run');
    expect(readFileSync(out, 'utf8')).toBe(
      '--app-name=teamd\n--urgency=critical\nteamd: worker-2 crashed\nheap out of memory\nrestart 1 in 2 s\n',
    );
  });

  it('a missing notify-send is ignored; desktop off runs nothing', async () => {
    const errors: string[] = [];
    const missing = createNotifier(config(undefined, true), {
      desktopCommand: join(dir, 'no-such-program'),
      onError: (m) => errors.push(m),
    });
    missing.onEvent(at({ type: 'team_finished', completed: 1, failed: 0, cancelled: 0 }));
    const marker = (name: string): string => {
      const script = join(dir, `notify-${name}`);
      writeFileSync(script, `#!/bin/sh\ntouch '${join(dir, name)}'\n`);
      chmodSync(script, 0o755);
      return script;
    };
    const finished = at({ type: 'team_finished', completed: 1, failed: 0, cancelled: 0 });
    createNotifier(config(undefined, false), { desktopCommand: marker('off') }).onEvent(finished);
    // Spawned after the others: once it ran, the missing program's ENOENT and the "off" notifier had their turn.
    createNotifier(config(undefined, true), { desktopCommand: marker('on') }).onEvent(finished);
    await waitFor(() => existsSync(join(dir, 'on')), 'the later notify-send');
    expect(existsSync(join(dir, 'off'))).toBe(false);
    expect(errors).toEqual([]);
  });
});
