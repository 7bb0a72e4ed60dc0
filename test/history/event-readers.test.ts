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
import { EventFeed } from '../../src/dashboard/event-feed.js';
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

  it('withinBytes: only the events whose whole line lies within that many bytes of the end', () => {
    const file = eventLogPath(repo.root);
    mkdirSync(dirname(file), { recursive: true });
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 30 }), fc.nat(400_000), (lines, within) => {
        const texts = lines.map((l, i) => (typeof l === 'string' ? l : JSON.stringify({ ts: new Date(i * 1000).toISOString(), ...l })));
        const text = texts.join('\n') + '\n';
        writeFileSync(file, text);
        const size = Buffer.byteLength(text);
        // A line is read when it starts on the bound or after it.
        const floor = Math.max(0, size - within);
        let start = 0;
        const inside: string[] = [];
        for (const t of texts) {
          if (start >= floor) inside.push(t);
          start += Buffer.byteLength(t) + 1;
        }
        const expected = inside.flatMap((t) => {
          try {
            const e = JSON.parse(t) as unknown;
            return typeof e === 'object' && e !== null && 'type' in e ? [e] : [];
          } catch {
            return [];
          }
        });
        expect(readLastEvents(file, Infinity, undefined, undefined, within).events).toEqual(expected);
      }),
      { numRuns: 60 },
    );
    // Two lines of n bytes each (their newlines included): the second is within n bytes of the end, both within 2n.
    const a = { ts: '2026-01-01T00:00:00Z', type: 'a' };
    const b = { ts: '2026-01-01T00:00:01Z', type: 'b' };
    writeFileSync(file, `${JSON.stringify(a)}\n${JSON.stringify(b)}\n`);
    const n = JSON.stringify(a).length + 1;
    const within = (bytes: number) => readLastEvents(file, Infinity, undefined, undefined, bytes).events;
    expect([within(n - 1), within(n), within(2 * n - 1), within(2 * n)]).toEqual([[], [b], [b], [a, b]]);
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

describe("top's event feed: whether the lead's last run ended", () => {
  /** A log: `before` notices, a lifecycle event, `after` notices. */
  function logWith(lifecycle: 'team_finished' | 'daemon_started', before: number, after: number): EventLog {
    const log = EventLog.forRepo(repo.root);
    for (let i = 0; i < before; i++) log.append({ type: 'notice', message: `b${i}` });
    log.append(
      lifecycle === 'team_finished'
        ? { type: 'team_finished', completed: 1, failed: 0, cancelled: 0 }
        : { type: 'daemon_started', pid: 1, teammates: ['w1'] },
    );
    for (let i = 0; i < after; i++) log.append({ type: 'notice', message: `a${i}` });
    return log;
  }

  it('looks back past its first window only when asked, and finds the newest lifecycle event there', () => {
    logWith('team_finished', 5, 200);
    const feed = new EventFeed(repo.root, 50);
    expect(feed.poll()).toEqual([]);
    expect(feed.ended).toBe(true);
    feed.close();
  });

  it('a lifecycle event after the first poll decides, whatever the past holds', () => {
    const log = logWith('team_finished', 0, 100);
    const feed = new EventFeed(repo.root, 50);
    feed.poll();
    log.append({ type: 'daemon_started', pid: 2, teammates: ['w1'] });
    expect(feed.poll().map((e) => e.type)).toEqual(['daemon_started']);
    expect(feed.ended).toBe(false);
    feed.close();
  });
});
