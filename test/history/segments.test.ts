/**
 * Rotated segments: generated sequences of appends, rotations, compressions
 * (some interrupted between their steps, as a kill would leave them) and
 * prunes of nothing; every line appended is read back once, in order.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  compressQuietSegments,
  listSegments,
  readSegmentText,
  rotateFile,
  segmentsFolder,
} from '../../src/store/segments.js';
import { tempRepo } from '../store/temp-repo.js';

let repo: { root: string; cleanup: () => Promise<void> };
beforeEach(async () => (repo = await tempRepo('teamd-segments-')));
afterEach(() => repo.cleanup());

const FILE = 'events.jsonl';
const FUTURE = Date.now() + 3_600_000;

/** Every line of the history: the segments oldest first, then the live file. */
async function everyLine(dir: string): Promise<string[]> {
  const texts = (await listSegments(dir, FILE)).map(readSegmentText);
  const live = join(dir, FILE);
  if (existsSync(live)) texts.push(readSegmentText({ path: live, compressed: false }));
  return texts.join('').split('\n').filter(Boolean);
}

type Op =
  | { kind: 'append'; lines: number }
  | { kind: 'rotate' }
  | { kind: 'compress'; crashAt: 'none' | 'written' | 'renamed' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), lines: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant('rotate' as const) }),
  fc.record({
    kind: fc.constant('compress' as const),
    crashAt: fc.constantFrom('none' as const, 'written' as const, 'renamed' as const),
  }),
);

class Crash extends Error {}

describe('segments of an append-only file', () => {
  it('a rotated or compressed line is never lost or read twice, whatever the order and wherever a pass stops', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const dir = join(repo.root, `run-${run++}`);
        mkdirSync(dir);
        const written: string[] = [];
        let stamp = Date.parse('2026-11-01T00:00:00Z');
        for (const op of ops) {
          if (op.kind === 'append')
            for (let i = 0; i < op.lines; i++) {
              const line = JSON.stringify({
                ts: new Date().toISOString(),
                type: 'notice',
                n: written.length,
              });
              appendFileSync(join(dir, FILE), line + '\n', { flag: 'a' });
              written.push(line);
            }
          else if (op.kind === 'rotate') await rotateFile(dir, FILE, new Date((stamp += 1000)));
          else {
            const pause = async (step: string): Promise<void> => {
              if (step === op.crashAt) throw new Crash(step);
            };
            await compressQuietSegments(dir, FILE, { now: FUTURE, quietMs: 0, pause }).catch((e: unknown) => {
              if (!(e instanceof Crash)) throw e;
            });
          }
          expect(await everyLine(dir)).toEqual(written);
        }
        await compressQuietSegments(dir, FILE, { now: FUTURE, quietMs: 0 });
        expect(await everyLine(dir)).toEqual(written);
        const left = existsSync(segmentsFolder(dir)) ? readdirSync(segmentsFolder(dir)) : [];
        expect(left.filter((n) => !n.startsWith('.') && !n.endsWith('.gz'))).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('a raw segment is compressed only once quiet since its rotation too (a writer may still hold it)', async () => {
    const dir = repo.root;
    appendFileSync(join(dir, FILE), '{"ts":"2026-01-01T00:00:00.000Z","type":"notice"}\n');
    const now = Date.now();
    await rotateFile(dir, FILE, new Date(now));
    expect((await compressQuietSegments(dir, FILE, { now: now + 1000, quietMs: 5000 })).compressed).toEqual(
      [],
    );
    expect(
      (await compressQuietSegments(dir, FILE, { now: now + 6000, quietMs: 5000 })).compressed,
    ).toHaveLength(1);
  });
});
