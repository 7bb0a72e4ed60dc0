import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createDaemonLogger,
  daemonLogPath,
  formatDaemonLogLine,
  levelOf,
  readDaemonLog,
} from '../../src/observe/daemon-log.js';
import { logs } from '../../src/cli/logs.js';
import { captureStdout } from './support/capture-stdout.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamd-daemon-log-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('createDaemonLogger', () => {
  it('writes each event as a JSON line at once (sync), at its level, fields under `event`', () => {
    const log = createDaemonLogger(root);
    try {
      log.event({ type: 'task_claimed', task: 'parser', agent: 'worker-1', attempt: 1 });
      // Synchronous destination: the line is on disk before the call returns.
      const [claimed] = readDaemonLog(root);
      expect(claimed).toMatchObject({
        level: 30,
        msg: 'worker-1 claimed parser',
        event: { type: 'task_claimed', task: 'parser', agent: 'worker-1', attempt: 1 },
      });
      expect(claimed!.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      log.event({
        ts: '2026-11-29T10:00:00.000Z',
        type: 'teammate_crashed',
        agent: 'worker-2',
        error: 'out of memory',
        restartInMs: 1000,
        restarts: 1,
      });
      log.event({ type: 'message_delivered', id: 'm-1', to: 'lead' });
      log.pino.warn({ apiKey: 'sk-secret', detail: { token: 'abc' } }, 'merge verify slow');
    } finally {
      log.close();
    }
    const lines = readDaemonLog(root);
    expect(lines.map((l) => l.level)).toEqual([30, 50, 20, 40]);
    expect(lines[1]!.event).not.toHaveProperty('ts');
    const raw = readFileSync(daemonLogPath(root), 'utf8');
    expect(raw).not.toContain('sk-secret');
    expect(raw).not.toContain('"abc"');
    expect(lines[3]).toMatchObject({ apiKey: '[redacted]', detail: { token: '[redacted]' } });
  });

  it('levels: failures warn, crashes error, bookkeeping debug', () => {
    expect(levelOf({ type: 'task_failed', task: 'x', agent: 'a', error: 'e' })).toBe('warn');
    expect(
      levelOf({ type: 'task_reclaimed', task: 'x', previousOwner: 'a', attempts: 3, failed: true }),
    ).toBe('warn');
    expect(
      levelOf({ type: 'task_reclaimed', task: 'x', previousOwner: 'a', attempts: 1, failed: false }),
    ).toBe('info');
    expect(levelOf({ type: 'teammate_state', agent: 'a', state: 'idle', task: null })).toBe('debug');
    expect(levelOf({ type: 'team_finished', completed: 1, failed: 0, cancelled: 0 })).toBe('info');
  });

  it('formats a line for people, colouring warnings only when asked', () => {
    const line = {
      level: 40,
      time: '2026-11-29T10:00:00.000Z',
      pid: 7,
      msg: '✘ parser failed (worker-1): boom',
      event: { type: 'task_failed' },
      attempt: 2,
    };
    expect(formatDaemonLogLine(line)).toBe(
      '2026-11-29 10:00:00.000Z  WARN   ✘ parser failed (worker-1): boom  attempt=2',
    );
    expect(formatDaemonLogLine(line, true)).toBe(
      '\x1b[33m2026-11-29 10:00:00.000Z  WARN   ✘ parser failed (worker-1): boom  attempt=2\x1b[39m',
    );
  });
});

describe('teamd logs --daemon', () => {
  it('prints the daemon log readably, --json as it is, and says so when there is none', async () => {
    const teamd = (json = false) => captureStdout(() => logs(undefined, { daemon: true, json, dir: root }));
    expect((await teamd()).error).toBe(`no daemon log yet: ${daemonLogPath(root)}`);
    const log = createDaemonLogger(root);
    log.event({ type: 'daemon_started', pid: 42, teammates: ['worker-1'] });
    log.event({ type: 'task_failed', task: 'parser', agent: 'worker-1', error: 'tests fail\nmore' });
    log.close();
    const readable = await teamd();
    expect(readable.error).toBeNull();
    expect(readable.stdout).toMatch(
      /^\d{4}-\d\d-\d\d \S+Z {2}INFO {3}lead started \(pid 42\) with worker-1\n\S+ \S+Z {2}WARN {3}✘ parser failed \(worker-1\): tests fail\n$/,
    );
    const json = await teamd(true);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).event.type),
    ).toEqual(['daemon_started', 'task_failed']);
  });
});
