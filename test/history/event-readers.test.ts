/**
 * The incremental event readers: the last N read backwards equal the last N
 * of a whole read (generated logs, lines longer than a read chunk, torn
 * lines); a tail reads each appended event once, across a rotation made
 * while the real EventLog writer holds the old file open.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastEvents } from '../../src/observe/event-history.js';
import { EventLog, eventLogPath, readEvents } from '../../src/observe/event-log.js';
import { EventTail, readLastEvents } from '../../src/observe/event-reader.js';
import type { LoggedEvent } from '../../src/observe/types.js';
import { compressQuietSegments, rotateFile } from '../../src/store/segments.js';
import { tempRepo, waitFor } from '../store/temp-repo.js';

let repo: { root: string; cleanup: () => Promise<void> };
beforeEach(async () => (repo = await tempRepo('teamd-events-')));
afterEach(() => repo.cleanup());

const lineArb = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 40 }).map((m) => ({ type: 'notice', message: m })) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 60_000, max: 150_000 })
      .map((n) => ({ type: 'notice', message: 'x'.repeat(n) })),
  },
  { weight: 1, arbitrary: fc.constantFrom('{"torn', 'not json', '') },
);

describe('reading the event log backwards', () => {
  it('the last n events (of a type) equal the end of a whole read', () => {
    const file = eventLogPath(repo.root);
    mkdirSync(dirname(file), { recursive: true });
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 30 }), fc.integer({ min: 0, max: 35 }), (lines, n) => {
        const text = lines
          .map((l, i) =>
            typeof l === 'string' ? l : JSON.stringify({ ts: new Date(i * 1000).toISOString(), ...l }),
          )
          .join('\n');
        writeFileSync(file, text + (lines.length % 2 ? '\n' : ''));
        const all = readEvents(repo.root);
        expect(readLastEvents(file, n).events).toEqual(n ? all.slice(-n) : []);
        const short = (e: LoggedEvent): boolean => e.type === 'notice' && e.message.length < 10;
        expect(readLastEvents(file, n, short).events).toEqual(n ? all.filter(short).slice(-n) : []);
      }),
      { numRuns: 40 },
    );
  });

  it('lastEvents reaches into the rotated segments (compressed or not) when the live log holds too few', async () => {
    const log = EventLog.forRepo(repo.root);
    const dir = dirname(eventLogPath(repo.root));
    for (let i = 0; i < 30; i++) {
      log.append({ type: 'notice', message: `m${i}` }, new Date(Date.UTC(2026, 10, 1, 0, i)));
      if (i === 9 || i === 19)
        await rotateFile(dir, 'events.jsonl', new Date(Date.UTC(2026, 10, 1, 0, i, 30)));
    }
    await compressQuietSegments(dir, 'events.jsonl', { now: Date.now() + 3_600_000, quietMs: 0 });
    const messages = (es: LoggedEvent[]) => es.map((e) => (e.type === 'notice' ? e.message : e.type));
    expect(messages((await lastEvents(repo.root, 15)).events)).toEqual(
      Array.from({ length: 15 }, (_, i) => `m${i + 15}`),
    );
    const since = new Date(Date.UTC(2026, 10, 1, 0, 5));
    expect(messages((await lastEvents(repo.root, 100, { since })).events)).toHaveLength(25);
  });
});

describe('EventTail', () => {
  it('reads each event once, across a rotation while the writer still holds the old file', async () => {
    const file = eventLogPath(repo.root);
    const log = EventLog.forRepo(repo.root);
    log.append({ type: 'notice', message: 'before' });
    const tail = new EventTail(file, 10);
    const seen: string[] = tail.poll().events.map((e) => (e.type === 'notice' ? e.message : ''));
    await rotateFile(dirname(file), 'events.jsonl');
    let n = 0;
    // The writer moves to the new file within its recheck interval: append until it has.
    await waitFor(
      () => {
        log.append({ type: 'notice', message: `after-${n++}` });
        seen.push(...tail.poll().events.map((e) => (e.type === 'notice' ? e.message : '')));
        return readEvents(repo.root).length > 0;
      },
      'the writer to reopen the log',
      10_000,
    );
    appendFileSync(file, '{"torn');
    seen.push(...tail.poll().events.map((e) => (e.type === 'notice' ? e.message : '')));
    expect(seen).toEqual(['before', ...Array.from({ length: n }, (_, i) => `after-${i}`)]);
    tail.close();
  });
});
