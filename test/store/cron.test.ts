import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CronStore, checkCronExpression, nextFireAt } from '../../src/store/cron/index.js';
import { CronJobSchema } from '../../src/store/types.js';
import { tempRepo } from './temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => (repo = await tempRepo()));
afterEach(async () => repo.cleanup());

const store = (roster?: string[]) =>
  new CronStore(repo.root, { roster, now: () => new Date('2026-06-01T08:00:00.000Z') });

describe('cron expressions', () => {
  it.each(['*/5 * * * *', '0 9 * * 1-5', '30 0 9 * * MON', '0 0 1 1 *'])('accepts %j', (expr) => {
    expect(checkCronExpression(expr).ok).toBe(true);
  });

  it.each([
    ['* * *', 'has 3 field(s); expected 5'],
    ['* * * * * * *', 'has 7 field(s)'],
    ['@daily', 'has 1 field(s)'],
    ['', 'has 0 field(s)'],
    ['61 * * * *', 'expected range 0-59'],
    ['every day', 'has 2 field(s)'],
    ['a b c d e', 'Invalid characters'],
  ])('refuses %j: %s', (expr, message) => {
    const r = checkCronExpression(expr);
    expect(r.ok === false && r.error.field).toBe('cron');
    expect(r.ok === false && r.error.message).toContain(message);
  });

  it('refuses an unknown time zone and honours a known one', () => {
    const bad = checkCronExpression('0 9 * * *', 'Mars/Olympus');
    expect(bad.ok === false && bad.error).toEqual({
      field: 'timezone',
      message: expect.stringContaining('unknown time zone "Mars/Olympus"'),
    });
    expect(
      nextFireAt(
        { cron: '0 9 * * *', timezone: 'Europe/Paris' },
        new Date('2026-06-01T00:00:00Z'),
      )?.toISOString(),
    ).toBe('2026-06-01T07:00:00.000Z');
  });
});

describe('CronStore', () => {
  it('adds a durable job as a file, lists, gets and removes it', async () => {
    const cron = store();
    const added = await cron.add({
      id: 'nightly',
      cron: '0 2 * * *',
      prompt: 'run the slow tests',
      to: 'worker-1',
      catchUp: 'once',
    });
    expect(added.ok).toBe(true);
    const file = CronJobSchema.parse(
      JSON.parse(await readFile(join(repo.root, '.cron', 'nightly.json'), 'utf8')),
    );
    expect(file).toMatchObject({
      id: 'nightly',
      recurring: true,
      durable: true,
      catchUp: 'once',
      lastFired: null,
      createdAt: '2026-06-01T08:00:00.000Z',
    });
    expect((await cron.list()).jobs.map((j) => j.id)).toEqual(['nightly']);
    expect(await new CronStore(repo.root).get('nightly')).toEqual(file);
    expect(await cron.add({ id: 'nightly', cron: '0 3 * * *', prompt: 'x' })).toEqual({
      ok: false,
      error: 'cron job "nightly" already exists',
    });
    expect((await cron.remove('nightly')).ok).toBe(true);
    expect(await cron.remove('nightly')).toEqual({ ok: false, error: 'no cron job "nightly"' });
    expect((await cron.list()).jobs).toEqual([]);
  });

  it('generates ids and refuses bad input with the field named', async () => {
    const cron = store(['lead', 'worker-1']);
    const added = await cron.add({ cron: '*/10 * * * *', prompt: 'status report' });
    expect(added.ok && added.value.id).toMatch(/^c-/);
    expect(await cron.add({ cron: '* * *', prompt: 'x' })).toEqual({
      ok: false,
      error: expect.stringMatching(/^cron: "\* \* \*" has 3 field/),
    });
    expect(await cron.add({ cron: '* * * * *', prompt: 'x', timezone: 'Nowhere/Land' })).toEqual({
      ok: false,
      error: expect.stringMatching(/^timezone: unknown time zone/),
    });
    expect(await cron.add({ cron: '* * * * *', prompt: 'x', to: 'bob' })).toEqual({
      ok: false,
      error: 'to: unknown recipient "bob"; valid: any, lead, worker-1',
    });
    expect(await cron.add({ cron: '* * * * *', prompt: '' })).toEqual({
      ok: false,
      error: expect.stringMatching(/^prompt: /),
    });
  });

  it('markFired records the slot once; a one-shot job is then done; markDelivered clears the pending fire', async () => {
    const cron = store();
    await cron.add({ id: 'once', cron: '0 9 * * *', prompt: 'remind', recurring: false });
    const fired = await cron.markFired('once', '2026-06-02T09:00:00.000Z');
    expect(fired.ok && fired.value).toMatchObject({
      lastFired: '2026-06-02T09:00:00.000Z',
      pendingDelivery: '2026-06-02T09:00:00.000Z',
      done: true,
    });
    expect(await new CronStore(repo.root).markFired('once', '2026-06-02T09:00:00.000Z')).toEqual({
      ok: false,
      error: 'cron job "once" already fired at 2026-06-02T09:00:00.000Z',
    });
    const delivered = await cron.markDelivered('once');
    expect(delivered.ok && delivered.value.pendingDelivery).toBeNull();
  });

  it('update checks the changed job', async () => {
    const cron = store();
    await cron.add({ id: 'j', cron: '* * * * *', prompt: 'x' });
    expect(await cron.update('j', (job) => ({ ...job, cron: '* *' }))).toEqual({
      ok: false,
      error: expect.stringMatching(/^cron: /),
    });
    expect(await cron.update('j', (job) => ({ ...job, id: 'k' }))).toEqual({
      ok: false,
      error: 'id cannot change',
    });
    const ok = await cron.update('j', (job) => ({ ...job, prompt: 'y' }));
    expect(ok.ok && ok.value.prompt).toBe('y');
  });

  it('keeps non-durable jobs in memory only', async () => {
    const cron = store();
    const added = await cron.add({ id: 'temp', cron: '* * * * *', prompt: 'x', durable: false });
    expect(added.ok).toBe(true);
    expect((await cron.list()).jobs.map((j) => j.id)).toEqual(['temp']);
    expect((await new CronStore(repo.root).list()).jobs).toEqual([]);
    expect((await cron.markFired('temp', '2026-06-01T08:01:00.000Z')).ok).toBe(true);
    expect((await cron.remove('temp')).ok).toBe(true);
  });

  it('lists valid jobs and reports bad files with file and field', async () => {
    await mkdir(join(repo.root, '.cron'));
    const job = (fields: object) =>
      JSON.stringify({ cron: '* * * * *', prompt: 'p', createdAt: '2026-01-01T00:00:00.000Z', ...fields });
    await writeFile(join(repo.root, '.cron', 'good.json'), job({ id: 'good' }));
    await writeFile(join(repo.root, '.cron', 'short.json'), job({ id: 'short', cron: '* *' }));
    await writeFile(join(repo.root, '.cron', 'renamed.json'), job({ id: 'other' }));
    await writeFile(join(repo.root, '.cron', 'typo.json'), job({ id: 'typo', recuring: false }));
    await writeFile(join(repo.root, '.cron', 'junk.json'), 'not json');
    const { jobs, problems } = await store().list();
    expect(jobs.map((j) => j.id)).toEqual(['good']);
    expect(problems).toEqual([
      { file: '.cron/junk.json', message: expect.stringContaining('invalid JSON') },
      { file: '.cron/renamed.json', field: 'id', message: 'must equal the file name "renamed"' },
      { file: '.cron/short.json', field: 'cron', message: expect.stringContaining('has 2 field(s)') },
      { file: '.cron/typo.json', field: 'recuring', message: 'unknown field' },
    ]);
    expect(await store().remove('short')).toEqual({
      ok: false,
      error: expect.stringMatching(/^\.cron\/short\.json: cron: .*; fix or delete the file$/),
    });
    expect(await store().markFired('typo', '2026-06-01T08:00:00.000Z')).toEqual({
      ok: false,
      error: '.cron/typo.json: recuring: unknown field',
    });
  });
});
