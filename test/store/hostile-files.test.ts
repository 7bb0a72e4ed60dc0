/**
 * Team files that are not what they seem (issue 16, items 4, 5, 9, 10 and
 * part of 11), at the store level: links out of the repository, links to
 * /dev/zero, dangling links, FIFOs, folders, JSON nested 5,000 deep, files
 * over the size cap, duplicate message ids. Each is reported once with its
 * file, its content is never read nor quoted, nothing blocks or throws, and
 * the valid files beside it still work. The lead, the CLI and the generated
 * variants are in test/faults/hostile-input.test.ts and test/cli/.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { textDepthProblem, valueShapeProblem } from '../../src/store/json-bounds.js';
import { checkTeamFiles } from '../../src/store/check.js';
import { CronStore } from '../../src/store/cron/index.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { FILE_LIMITS, readTeamFile, readTeamFileSync } from '../../src/store/team-file.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { deepTaskText, dropHostileEntries, hostileEntry, mkfifo, SECRET, secretFile } from './hostile-entries.js';
import { hostileFolderHolds, SMALLEST_CAP } from './hostile-property.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** `<root>/repo` with `.tasks/ok.json`, next to `<root>/outside`. */
function sandbox(): { repo: string; outside: string } {
  root = mkdtempSync(join(tmpdir(), 'teamd-hostile-'));
  const repo = join(root, 'repo');
  mkdirSync(join(repo, '.tasks'), { recursive: true });
  writeFileSync(join(repo, '.tasks', 'ok.json'), JSON.stringify({ subject: 'a fine task' }));
  return { repo, outside: join(root, 'outside') };
}

const messageOf = (problems: { file: string; message: string }[], file: string): string =>
  problems.filter((p) => p.file === file).map((p) => p.message).join(' | ');

it('task files that are links, FIFOs, folders or nested 5,000 deep are each reported unread, and the valid task works', async () => {
  const { repo, outside } = sandbox();
  const names = dropHostileEntries(join(repo, '.tasks'), outside);
  const started = Date.now();
  const store = await TaskStore.open(repo); // normalising: the deep file used to throw a RangeError here
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(store.list().map((t) => t.id)).toEqual(['ok']);
  const problems = store.problems();
  const at = (name: string) => messageOf(problems, `.tasks/${name}.json`);
  expect(at(names.secretLink)).toMatch(/symbolic link to outside the repository.*not read/);
  expect(at(names.relativeLink)).toMatch(/symbolic link to outside the repository/);
  expect(at(names.zeroLink)).toMatch(/symbolic link to outside the repository/);
  expect(at(names.dangling)).toMatch(/dangling symbolic link/);
  expect(at(names.fifo)).toMatch(/FIFO.*not a regular file/);
  expect(at(names.folder)).toMatch(/a folder, not a regular file/);
  expect(at(names.deep)).toMatch(/nested deeper than 64 levels/);
  // One problem per file, and never the content behind a link.
  expect(problems).toHaveLength(Object.keys(names).length);
  expect(JSON.stringify(problems)).not.toContain(SECRET);
  // A watcher hit on each is a refusal, not a blocked or exhausted read.
  for (const name of Object.values(names)) expect((await store.refresh(name)).kind).toBe('invalid');
  expect((await store.claim('ok', 'ann', 60_000)).ok).toBe(true);
});

it('creating or updating a task with metadata nested too deep is refused naming the field; the store carries on', async () => {
  const { repo } = sandbox();
  const store = await TaskStore.open(repo);
  let deep: unknown = {};
  for (let i = 0; i < 5_000; i++) deep = { a: deep };
  const created = await store.create({ subject: 'deep', metadata: deep as Record<string, unknown> });
  expect(created.ok).toBe(false);
  if (!created.ok) expect(created.error).toMatch(/metadata.*nested deeper than 32 levels/);
  const updated = await store.update('ok', (t) => ({ ...t, metadata: deep as Record<string, unknown> }));
  expect(updated.ok).toBe(false);
  if (!updated.ok) expect(updated.error).toMatch(/metadata/);
  const wide = await store.create({ subject: 'wide', metadata: { a: 'x'.repeat(300_000) } });
  expect(wide.ok).toBe(false);
  expect((await store.create({ id: 'fine', subject: 'fine', metadata: { a: { b: [1, 2] } } })).ok).toBe(true);
  expect(store.list().map((t) => t.id).sort()).toEqual(['fine', 'ok']);
});

it('a task file over the size cap is refused by its size, unread', async () => {
  const { repo } = sandbox();
  writeFileSync(join(repo, '.tasks', 'big.json'), `{"subject":"${'b'.repeat(FILE_LIMITS.task)}"}`);
  const store = await TaskStore.open(repo);
  expect(messageOf(store.problems(), '.tasks/big.json')).toMatch(/over the limit of 1048576 bytes; not read/);
  expect(store.list().map((t) => t.id)).toEqual(['ok']);
});

it('the safe reader refuses a FIFO and /dev/zero at once, sync and async, and reads a regular file', async () => {
  const { repo, outside } = sandbox();
  const fifo = join(repo, '.tasks', 'f.json');
  mkfifo(fifo);
  symlinkSync('/dev/zero', join(repo, '.tasks', 'z.json'));
  for (const read of [readTeamFileSync, readTeamFile]) {
    expect(await read(fifo, '.tasks/f.json', 1024)).toMatchObject({ kind: 'invalid' });
    expect(await read(join(repo, '.tasks', 'z.json'), '.tasks/z.json', 1024)).toMatchObject({ kind: 'invalid' });
    expect(await read('/dev/zero', 'zero', 1024)).toMatchObject({ kind: 'invalid', problem: { message: /device/ } });
    expect(await read(join(repo, '.tasks', 'ok.json'), 'ok', 1024)).toMatchObject({ kind: 'text' });
    expect(await read(join(repo, '.tasks', 'none.json'), 'none', 1024)).toEqual({ kind: 'missing' });
    const secret = await read(secretFile(outside), 'x', 1024);
    expect(secret.kind).toBe('text'); // a regular file is read: the refusal is about links and kinds
  }
});

it('inboxes and cron files that are links are reported unread; a message id found twice is a problem and delivered once', async () => {
  const { repo, outside } = sandbox();
  const mail = join(repo, '.mailboxes');
  mkdirSync(join(repo, '.cron'), { recursive: true });
  mkdirSync(mail, { recursive: true });
  symlinkSync(secretFile(outside), join(mail, 'bob.json'));
  symlinkSync(secretFile(outside), join(repo, '.cron', 'job.json'));
  mkfifo(join(mail, 'cat.json'));
  const message = { id: 'm1', from: 'user', to: 'ann', content: 'hello', ts: new Date().toISOString() };
  writeFileSync(join(mail, 'ann.json'), JSON.stringify([message, { ...message }]));
  const store = new MailboxStore(repo);
  const problems = await store.problems();
  expect(messageOf(problems, '.mailboxes/ann.json')).toMatch(/message id "m1" appears 2 times; delivered once/);
  expect(messageOf(problems, '.mailboxes/bob.json')).toMatch(/symbolic link to outside the repository/);
  expect(messageOf(problems, '.mailboxes/cat.json')).toMatch(/FIFO/);
  const cron = await new CronStore(repo).list();
  expect(messageOf(cron.problems, '.cron/job.json')).toMatch(/symbolic link to outside the repository/);
  const reported: string[] = [];
  store.onProblem = (p) => reported.push(p.message);
  expect((await store.take('ann')).map((m) => m.id)).toEqual(['m1']);
  expect(reported).toEqual(['message id "m1" appears 2 times; delivered once (the first)']);
  expect(JSON.stringify([problems, cron.problems])).not.toContain(SECRET);
});

it('team folders that are links are reported by checkTeamFiles and never followed', async () => {
  const { repo, outside } = sandbox();
  mkdirSync(join(outside, 'tasks'), { recursive: true });
  writeFileSync(join(outside, 'tasks', 'x.json'), JSON.stringify({ subject: SECRET }));
  symlinkSync(join(outside, 'tasks'), join(repo, '.cron'));
  symlinkSync(join(outside, 'nowhere'), join(repo, '.mailboxes'));
  const report = await checkTeamFiles(repo);
  expect(messageOf(report.problems, '.cron')).toMatch(/symbolic link to outside the repository.*team folders must be real folders/);
  expect(messageOf(report.problems, '.mailboxes')).toMatch(/dangling symbolic link/);
  expect(report.counts.cronJobs).toBe(0);
  expect(JSON.stringify(report)).not.toContain(SECRET);
});

it('a config that is truncated, a link or nested too deep is an error naming the file, never quoting a link target', async () => {
  const { repo, outside } = sandbox();
  mkdirSync(join(repo, '.team'));
  const file = join(repo, '.team', 'config.json');
  writeFileSync(file, '{"teammates": [{"name": "an');
  expect(await loadConfig(repo)).toMatchObject({ ok: false, error: expect.stringMatching(/config\.json: invalid JSON/) });
  writeFileSync(file, deepTaskText(10_000));
  expect(await loadConfig(repo)).toMatchObject({ ok: false, error: expect.stringMatching(/nested deeper than 64/) });
  rmSync(file);
  symlinkSync(secretFile(outside), file);
  const linked = await loadConfig(repo);
  expect(linked).toMatchObject({ ok: false, error: expect.stringMatching(/config\.json: is a symbolic link to outside/) });
  expect(JSON.stringify(linked)).not.toContain(SECRET);
});

it('the depth scan ignores brackets inside strings and escapes; the value walk does not recurse', () => {
  expect(textDepthProblem(`{"a":"${'['.repeat(1_000)}\\"${'{'.repeat(1_000)}"}`)).toBeUndefined();
  expect(textDepthProblem('['.repeat(65))).toMatch(/deeper than 64/);
  expect(textDepthProblem('['.repeat(64) + ']'.repeat(64))).toBeUndefined();
  let deep: unknown = 1;
  for (let i = 0; i < 200_000; i++) deep = [deep];
  expect(valueShapeProblem(deep)).toMatch(/deeper than 64/);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  expect(valueShapeProblem(cyclic)).toMatch(/deeper/);
  expect(valueShapeProblem({ a: [1, { b: 'c' }] })).toBeUndefined();
});

it('generated hostile folders (random nesting, bytes, sizes, links, FIFOs): never a throw, every file named, the valid files work', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(hostileEntry(SMALLEST_CAP), { minLength: 1, maxLength: 6 }), hostileFolderHolds),
    { numRuns: 12, seed: 0x16 },
  );
}, 60_000);
