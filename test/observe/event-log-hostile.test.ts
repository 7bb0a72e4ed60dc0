/**
 * The event log replaced by something hostile (issue 16): a FIFO (an ordinary
 * append-open blocks until someone reads it, stopping the lead) or a link to a
 * file outside the repository (appending would write events into it): the
 * append returns at once, writes nothing through the link, and the team goes
 * on; once the log is a file again, events are appended.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { EventLog, eventLogPath, readEvents } from '../../src/observe/event-log.js';
import { mkfifo, SECRET, secretFile } from '../store/hostile-entries.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamd-events-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it('a FIFO in place of events.jsonl does not block an append; a file again is appended to', () => {
  const log = EventLog.forRepo(root);
  mkdirSync(join(root, '.team', 'state'), { recursive: true });
  const file = eventLogPath(root);
  mkfifo(file);
  log.append({ type: 'notice', message: 'into the fifo' } as never);
  rmSync(file);
  log.append({ type: 'notice', message: 'into the file' } as never);
  expect(readEvents(root).map((e) => (e as { message?: string }).message)).toEqual(['into the file']);
});

it('a link in place of events.jsonl is not followed: the file it points at is not written', () => {
  const log = EventLog.forRepo(root);
  mkdirSync(join(root, '.team', 'state'), { recursive: true });
  const secret = secretFile(join(root, 'outside'));
  symlinkSync(secret, eventLogPath(root));
  log.append({ type: 'notice', message: 'not into the secret' } as never);
  expect(readFileSync(secret, 'utf8')).toBe(`root:${SECRET}:19000:0:99999:7:::\n`);
});
