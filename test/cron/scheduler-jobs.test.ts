import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CronScheduler } from '../../src/cron/scheduler.js';
import { CronJobSchema } from '../../src/store/types.js';
import type { Harness } from './support/harness.js';
import { harness, inbox, readJob, writeJob } from './support/harness.js';

const T0 = '2026-05-01T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function started(): Promise<Harness> {
  h = await harness(T0);
  await h.scheduler.start();
  return h;
}

describe('jobs changing while the scheduler runs', () => {
  it('a job added, edited and removed takes effect at once', async () => {
    const h = await started();
    expect(h.clock.pendingTimers()).toBe(0); // nothing to wait for: no timer at all
    await h.advance(1500);
    const added = await h.source.add({
      id: 'new',
      cron: '*/5 * * * * *',
      prompt: 'p',
      to: 'alice',
      timezone: 'UTC',
    });
    expect(added.ok).toBe(true);
    await h.scheduler.reload('new');
    expect(h.clock.nextTimerIn()).toBe(3500);
    await h.advance(3500);
    expect(h.of('cron_fired')).toMatchObject([{ jobId: 'new', slot: at(5), at: at(5) }]);

    await h.source.update('new', (job) => ({ ...job, cron: '0 * * * * *' })); // every minute now
    await h.scheduler.reload('new');
    await h.advance(55_000);
    expect((await inbox(h.root, 'alice')).map((m) => m.slot)).toEqual([at(5), at(60)]);

    await h.source.remove('new');
    await h.scheduler.reload('new');
    expect(h.clock.pendingTimers()).toBe(0);
    await h.advance(120_000);
    expect(h.of('cron_fired')).toHaveLength(2);
  });
});

describe('target any', () => {
  it('with every teammate busy the fire waits, and goes to the first one idle, once', async () => {
    const h = await started();
    h.team.idle.clear();
    await writeJob(h.root, {
      id: 'anyone',
      cron: '*/2 * * * * *',
      to: 'any',
      timezone: 'UTC',
      createdAt: T0,
    });
    await h.scheduler.reload();
    await h.advance(2000);
    expect(h.of('cron_deferred')).toMatchObject([{ jobId: 'anyone', slot: at(2) }]);
    expect((await readJob(h.root, 'anyone')).pendingDelivery).toBe(at(2));
    await h.advance(4000); // no pile-up on top of the undelivered fire
    expect(h.of('cron_fired')).toHaveLength(1);
    expect(h.of('cron_missed_skipped')).toMatchObject([
      { reason: 'undelivered', first: at(4), last: at(4) },
      { reason: 'undelivered', first: at(6) },
    ]);

    await h.scheduler.onTeammateIdle(); // still nobody idle
    expect(h.of('cron_deferred')).toHaveLength(2);
    h.team.idle.add('bob');
    await h.scheduler.onTeammateIdle();
    await h.scheduler.onTeammateIdle();
    expect(await inbox(h.root, 'bob')).toMatchObject([{ slot: at(2), jobId: 'anyone' }]);
    expect(h.of('cron_delivered')).toMatchObject([{ slot: at(2), recovered: false }]);
    expect((await readJob(h.root, 'anyone')).pendingDelivery).toBeNull();
    await h.advance(2000);
    expect((await inbox(h.root, 'bob')).map((m) => m.slot)).toEqual([at(2), at(8)]);
  });
});

describe('one-shot jobs and expiry', () => {
  it('recurring:false fires once, is marked done and kept on disk', async () => {
    const h = await started();
    await writeJob(h.root, {
      id: 'once',
      cron: '*/2 * * * * *',
      to: 'alice',
      recurring: false,
      timezone: 'UTC',
      createdAt: T0,
    });
    await h.scheduler.reload();
    await h.advance(10_000);
    expect(h.of('cron_done')).toMatchObject([{ jobId: 'once', slot: at(2) }]);
    expect(await readJob(h.root, 'once')).toMatchObject({
      done: true,
      lastFired: at(2),
      pendingDelivery: null,
    });
    expect(h.clock.pendingTimers()).toBe(0);
    await h.restart();
    await h.advance(10_000);
    expect((await inbox(h.root, 'alice')).map((m) => m.slot)).toEqual([at(2)]);
    expect(h.scheduler.jobs()).toMatchObject([{ job: { id: 'once', done: true }, nextFireAt: null }]);
  });

  it('expiresAt stops a job at that time and says so once', async () => {
    const h = await started();
    await writeJob(h.root, {
      id: 'brief',
      cron: '*/2 * * * * *',
      to: 'alice',
      timezone: 'UTC',
      createdAt: T0,
      expiresAt: at(5),
    });
    await h.scheduler.reload();
    expect(h.scheduler.jobs()).toMatchObject([{ nextFireAt: at(2) }]);
    await h.advance(20_000);
    await h.scheduler.reload();
    expect((await inbox(h.root, 'alice')).map((m) => m.slot)).toEqual([at(2), at(4)]);
    expect(h.of('cron_expired')).toEqual([
      { type: 'cron_expired', at: at(5), jobId: 'brief', expiresAt: at(5) },
    ]);
    expect(h.clock.pendingTimers()).toBe(0);
  });
});

describe('bad job files', () => {
  it('are reported once with their file names and skipped; the good job still fires', async () => {
    const h = await started();
    const dir = join(h.root, '.cron');
    await writeJob(h.root, {
      id: 'good',
      cron: '*/2 * * * * *',
      to: 'alice',
      timezone: 'UTC',
      createdAt: T0,
    });
    await writeJob(h.root, { id: 'stranger', cron: '*/2 * * * * *', to: 'zed', createdAt: T0 });
    const raw = (id: string, fields: object) => JSON.stringify({ id, prompt: 'p', createdAt: T0, ...fields });
    await writeFile(join(dir, 'broken.json'), '{ "id": "broken", ');
    await writeFile(join(dir, 'three.json'), raw('three', { cron: '* * *' }));
    await writeFile(join(dir, 'mars.json'), raw('mars', { cron: '0 9 * * *', timezone: 'Mars/Olympus' }));
    await h.scheduler.reload();
    await h.scheduler.reload();
    await h.advance(2000);
    const invalid = h.of('cron_job_invalid');
    expect(invalid.map((e) => e.file).sort()).toEqual([
      '.cron/broken.json',
      '.cron/mars.json',
      '.cron/stranger.json',
      '.cron/three.json',
    ]);
    expect(invalid.find((e) => e.file === '.cron/stranger.json')).toMatchObject({
      jobId: 'stranger',
      field: 'to',
      message: expect.stringContaining('"zed"'),
    });
    expect(invalid.find((e) => e.file === '.cron/three.json')?.message).toMatch(/3 field/);
    expect(invalid.find((e) => e.file === '.cron/mars.json')?.message).toMatch(/Mars\/Olympus/);
    expect(h.of('cron_fired').map((e) => e.jobId)).toEqual(['good']);

    // Fixed, the job runs (slot 2, reached just now, is on time); broken again, it is reported again.
    await writeJob(h.root, {
      id: 'stranger',
      cron: '*/2 * * * * *',
      to: 'bob',
      timezone: 'UTC',
      createdAt: T0,
    });
    await h.scheduler.reload('stranger');
    await h.advance(2000);
    expect((await inbox(h.root, 'bob')).map((m) => m.slot)).toEqual([at(2), at(4)]);
    await writeJob(h.root, { id: 'stranger', cron: '*/2 * * * * *', to: 'zed', createdAt: T0 });
    await h.scheduler.reload('stranger');
    expect(h.of('cron_job_invalid').filter((e) => e.file === '.cron/stranger.json')).toHaveLength(2);
  });
});

describe('jobs that are not durable', () => {
  it('live in memory only, fire like the others and can be removed', async () => {
    const h = await started();
    const job = CronJobSchema.parse({
      id: 'mem',
      cron: '*/3 * * * * *',
      prompt: 'p',
      to: 'alice',
      timezone: 'UTC',
      createdAt: T0,
    });
    expect(await h.scheduler.addEphemeral(job)).toMatchObject({ ok: true, value: { durable: false } });
    expect(await h.scheduler.addEphemeral(job)).toEqual({ ok: false, error: 'cron job mem already exists' });
    const bad = await h.scheduler.addEphemeral({ ...job, id: 'bad', timezone: 'Nowhere/Else' });
    expect(bad).toMatchObject({
      ok: false,
      error: expect.stringContaining('timezone: unknown time zone "Nowhere/Else"'),
    });
    await h.advance(6000);
    expect((await inbox(h.root, 'alice')).map((m) => m.slot)).toEqual([at(3), at(6)]);
    expect((await h.source.list()).jobs).toEqual([]);
    expect(h.scheduler.jobs()).toMatchObject([{ job: { id: 'mem', lastFired: at(6) }, nextFireAt: at(9) }]);
    expect(await h.scheduler.removeEphemeral('mem')).toMatchObject({ ok: true });
    await h.advance(6000);
    expect(h.of('cron_fired')).toHaveLength(2);
  });
});

describe('failures', () => {
  it('a delivery that throws is reported, stays pending and is retried; a throwing listener changes nothing', async () => {
    h = await harness(T0);
    const { team } = h;
    let failNext = true;
    const seen: string[] = [];
    h.scheduler = new CronScheduler({
      source: h.source,
      clock: h.clock,
      deliver: async (job, slot) => {
        if (!failNext) return team.deliver(job, slot);
        failNext = false;
        throw new Error('mailbox unavailable');
      },
      onEvent: (e) => {
        seen.push(e.type === 'cron_error' ? `${e.type}: ${e.stage}: ${e.message}` : e.type);
        throw new Error('listener broke');
      },
    });
    await writeJob(h.root, {
      id: 'flaky',
      cron: '*/2 * * * * *',
      to: 'alice',
      timezone: 'UTC',
      createdAt: T0,
    });
    await h.scheduler.start();
    await h.advance(2000);
    expect(seen).toEqual(['cron_fired', 'cron_error: deliver: mailbox unavailable']);
    expect((await readJob(h.root, 'flaky')).pendingDelivery).toBe(at(2));
    await h.scheduler.onTeammateIdle();
    await h.advance(2000);
    expect((await inbox(h.root, 'alice')).map((m) => m.slot)).toEqual([at(2), at(4)]);
    expect(seen.slice(2)).toEqual(['cron_delivered', 'cron_fired', 'cron_delivered']);
  });
});
