/**
 * The claim and mail races with random SIGSTOP/SIGCONT (issue 16, item 6):
 * workers are stopped at random moments, often for longer than the (short)
 * lock staleness, so their locks are taken over while they hold them. Fenced
 * writes must keep every claim single and every message: a stopped holder's
 * write fails as a lost race when it resumes.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { MailboxStore } from '../../../src/store/mailbox/index.js';
import { TaskStore } from '../../../src/store/tasks/index.js';
import { raceScript, spawnTs, type TsChild } from '../../support/race/spawn-ts.js';
import { tempRepo } from '../temp-repo.js';

export interface StopRaceSizes {
  claimers: number;
  tasks: number;
  senders: number;
  messages: number;
  /** The workers' lock staleness; stops last up to 2.5 × this. */
  staleMs: number;
  timeoutMs: number;
}

interface Stops {
  stops: number;
  pastStaleness: number;
}

/** Stops each child again and again at random moments until `end` is called; every child is left running. */
function stopAtRandom(children: readonly ChildProcess[], staleMs: number, random: () => number): () => Promise<Stops> {
  let running = true;
  const counts: Stops = { stops: 0, pastStaleness: 0 };
  const loops = children.map(async (child) => {
    while (running) {
      await delay(10 + random() * 60);
      if (!running || !child.kill('SIGSTOP')) break;
      counts.stops++;
      const stoppedMs = random() * 2.5 * staleMs;
      if (stoppedMs > staleMs) counts.pastStaleness++;
      await delay(stoppedMs);
      child.kill('SIGCONT');
    }
  });
  return async () => {
    running = false;
    await Promise.all(loops);
    for (const child of children) child.kill('SIGCONT');
    return counts;
  };
}

const task = (id: string) => ({ id, subject: `task ${id}`, createdAt: '2026-01-01T00:00:00.000Z' });

async function claimRace(sizes: StopRaceSizes, random: () => number): Promise<void> {
  const repo = await tempRepo('teamd-stop-claims-');
  const env = { RACE_STALE_MS: String(sizes.staleMs) };
  const workers: TsChild[] = Array.from({ length: sizes.claimers }, (_, i) =>
    spawnTs(raceScript('claim-worker.ts'), [`w${i}`, i % 2 ? 'direct' : 'next'], undefined, env),
  );
  try {
    await mkdir(join(repo.root, '.tasks'));
    const ids = Array.from({ length: sizes.tasks }, (_, i) => `s-${i}`);
    await Promise.all(ids.map((id) => writeFile(join(repo.root, '.tasks', `${id}.json`), JSON.stringify(task(id)))));
    for (const w of workers) w.child.stdin!.write(`open ${repo.root}\n`);
    await Promise.all(workers.map((w) => w.waitForLine((l) => l === 'ready')));
    for (const w of workers) w.child.stdin!.write('go\n');
    const end = stopAtRandom(workers.map((w) => w.child), sizes.staleMs, random);
    const claims = await Promise.all(
      workers.map(async (w) => JSON.parse((await w.waitForLine((l) => l.startsWith('claimed '), sizes.timeoutMs)).slice(8)) as string[]),
    );
    const stops = await end();
    console.log(`stop race, claims: ${stops.stops} stops (${stops.pastStaleness} past the staleness)`);
    const all = claims.flat();
    expect(new Set(all).size, 'no task claimed twice').toBe(all.length);
    expect(all.sort()).toEqual([...ids].sort());
    const after = await TaskStore.open(repo.root, { normalise: false });
    claims.forEach((mine, i) => mine.forEach((id) => expect(after.get(id)).toMatchObject({ status: 'in_progress', owner: `w${i}` })));
  } finally {
    for (const w of workers) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await repo.cleanup();
  }
}

async function mailRace(sizes: StopRaceSizes, random: () => number): Promise<void> {
  const repo = await tempRepo('teamd-stop-mail-');
  const env = { RACE_STALE_MS: String(sizes.staleMs) };
  const senders = Array.from({ length: sizes.senders }, (_, i) =>
    spawnTs(raceScript('send-worker.ts'), [repo.root, `sender-${i}`, 'ann', String(sizes.messages)], undefined, env),
  );
  try {
    await Promise.all(senders.map((s) => s.waitForLine((l) => l === 'ready')));
    for (const s of senders) s.child.stdin!.write('go\n');
    const end = stopAtRandom(senders.map((s) => s.child), sizes.staleMs, random);
    const mailbox = new MailboxStore(repo.root, { lock: { staleMs: sizes.staleMs } });
    let done = 0;
    const sentLists = senders.map(async (s) => {
      const line = await s.waitForLine((l) => l.startsWith('sent '), sizes.timeoutMs);
      done++;
      return JSON.parse(line.slice(5)) as string[];
    });
    const received: string[] = [];
    while (done < senders.length || (await mailbox.peek('ann')).length > 0) {
      const batch = await mailbox.take('ann');
      if (batch.length) expect((await mailbox.ack('ann', batch.map((m) => m.id))).ok).toBe(true);
      received.push(...batch.map((m) => m.id));
      if (!batch.length) await delay(5);
    }
    const stops = await end();
    console.log(`stop race, mail: ${stops.stops} stops (${stops.pastStaleness} past the staleness)`);
    const sent = (await Promise.all(sentLists)).flat();
    expect(sent.length).toBe(sizes.senders * sizes.messages);
    expect(new Set(received).size, 'no message delivered twice').toBe(received.length);
    expect(new Set(received)).toEqual(new Set(sent));
    expect(new Set((await mailbox.history('ann')).map((m) => m.id))).toEqual(new Set(sent));
    expect(await mailbox.problems()).toEqual([]);
  } finally {
    for (const s of senders) s.child.kill('SIGKILL');
    await Promise.all(senders.map((s) => s.exited));
    await repo.cleanup();
  }
}

/** Registers the two stop races at `sizes`. */
export function stopRaceSuite(sizes: StopRaceSizes, random: () => number = Math.random): void {
  describe('process races with random SIGSTOP/SIGCONT past the lock staleness', () => {
    it(`${sizes.claimers} claimers × ${sizes.tasks} tasks: every task claimed exactly once`, { timeout: sizes.timeoutMs + 30_000 }, () =>
      claimRace(sizes, random),
    );
    it(`${sizes.senders} senders × ${sizes.messages} messages: none lost, none twice`, { timeout: sizes.timeoutMs + 30_000 }, () =>
      mailRace(sizes, random),
    );
  });
}
