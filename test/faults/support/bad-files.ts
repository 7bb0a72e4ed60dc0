/**
 * Seeded generators (fast-check) of malformed team files: task files, inbox
 * files, cron jobs and configs that are not JSON, are binary, are JSON of the
 * wrong shape, break one field, or carry a file name that is not a valid id.
 * Every file is checked against the real parser before it is used, so a
 * generator that happens to produce a valid file cannot make the test lie.
 */
import fc from 'fast-check';
import { checkCronExpression } from '../../../src/store/cron/expression.js';
import { CronJobSchema, InboxSchema, ID_PATTERN } from '../../../src/store/types.js';
import { taskFromFile } from '../../../src/store/tasks/parse.js';

export interface BadFile {
  folder: '.tasks' | '.mailboxes' | '.cron';
  name: string;
  content: string | Uint8Array;
}

const NOW = '2026-11-29T10:00:00.000Z';
const json = (v: unknown): string => JSON.stringify(v);
const TRAVERSAL = ['../x', '/etc/passwd', 'a/b', '', '..', '-lead', 'a b', 'ü', 'x'.repeat(65)];

/** A stem that is not a valid id (reported for its name), made unique with `i`. */
const badStem = (i: number): fc.Arbitrary<string> =>
  fc.constantFrom(
    `-bad${i}`,
    `bad ${i}`,
    `bäd${i}`,
    `b..${i}`,
    `${'n'.repeat(64)}${i}`,
    `bad${i}!`,
    `(${i})`,
  );

const garbage: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ minLength: 1, maxLength: 300 }),
  fc.jsonValue().map(json),
  fc.constantFrom('{', '{"subject":', '[', 'null', '"text"', '42', '\u0000\u0001\u0002'),
);

const badTask: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({
    subject: fc.oneof(
      fc.integer(),
      fc.constant(''),
      fc.string({ minLength: 501, maxLength: 600 }),
      fc.constant(null),
    ),
  }),
  fc.record({
    subject: fc.constant('s'),
    status: fc
      .string({ maxLength: 12 })
      .filter((s) => !['pending', 'in_progress', 'completed', 'failed', 'cancelled'].includes(s)),
  }),
  fc.record({
    subject: fc.constant('s'),
    blockedBy: fc.array(fc.constantFrom(...TRAVERSAL), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ subject: fc.constant('s'), owner: fc.constantFrom(...TRAVERSAL) }),
  fc.record({
    subject: fc.constant('s'),
    priority: fc.double({ noInteger: true, noDefaultInfinity: true, noNaN: true }),
  }),
  fc.record({ subject: fc.constant('s'), id: fc.constant('someone-else') }),
  fc.record({ subject: fc.constant('s'), unknownField: fc.jsonValue() }),
  fc.record({ subject: fc.constant('s'), lease: fc.constant({ owner: '../x', expiresAt: 'never' }) }),
  fc.record({ subject: fc.constant('s'), description: fc.constant('d'.repeat(100_001)) }),
);

const badInbox: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ not: fc.constant('an array') }),
  fc.array(fc.jsonValue(), { minLength: 1, maxLength: 3 }),
  fc.constant([{ id: 'm1', from: 'x', to: '../x', content: 'hi', ts: NOW }]),
  fc.constant([{ id: 'm1', from: 'x', to: 'ann', content: 5, ts: NOW }]),
  fc.constant([{ id: 'm1', from: 'x', to: 'ann', content: 'hi', ts: 'yesterday' }]),
);

const badCron = (id: string): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.record({
      id: fc.constant(id),
      cron: fc.constantFrom('* * *', '61 * * * *', 'not cron', '* * * * * * *'),
      prompt: fc.constant('p'),
      createdAt: fc.constant(NOW),
    }),
    fc.record({
      id: fc.constant(id),
      cron: fc.constant('* * * * *'),
      prompt: fc.constant('p'),
      timezone: fc.constantFrom('Mars/Olympus', 'UTC+99'),
      createdAt: fc.constant(NOW),
    }),
    fc.record({
      id: fc.constant('not-the-file-name'),
      cron: fc.constant('* * * * *'),
      prompt: fc.constant('p'),
      createdAt: fc.constant(NOW),
    }),
    fc.record({
      id: fc.constant(id),
      cron: fc.constant('* * * * *'),
      prompt: fc.constant(''),
      createdAt: fc.constant(NOW),
    }),
    fc.record({
      id: fc.constant(id),
      cron: fc.constant('* * * * *'),
      prompt: fc.constant('p'),
      to: fc.constantFrom(...TRAVERSAL),
      createdAt: fc.constant(NOW),
    }),
    fc.record({
      id: fc.constant(id),
      cron: fc.constant('* * * * *'),
      prompt: fc.constant('p'),
      extra: fc.jsonValue(),
      createdAt: fc.constant(NOW),
    }),
  );

/** Content for a file of `folder` named `stem`: garbage, or JSON that breaks that folder's schema. */
function contentFor(folder: BadFile['folder'], stem: string): fc.Arbitrary<string | Uint8Array> {
  const shaped = folder === '.tasks' ? badTask : folder === '.mailboxes' ? badInbox : badCron(stem);
  return fc.oneof({ weight: 1, arbitrary: garbage }, { weight: 3, arbitrary: shaped.map(json) });
}

const text = (c: string | Uint8Array): string =>
  typeof c === 'string' ? c : Buffer.from(c).toString('utf8');

/** Whether the real parsers would accept this file (then it is not a bad file). */
function acceptable(f: BadFile): boolean {
  const stem = f.name.slice(0, -'.json'.length);
  let raw: unknown;
  try {
    raw = JSON.parse(text(f.content));
  } catch {
    return false;
  }
  if (f.folder === '.tasks') return taskFromFile(raw, stem, f.name, new Date()).ok;
  if (!ID_PATTERN.test(stem) || stem.includes('..')) return false;
  if (f.folder === '.mailboxes') return InboxSchema.safeParse(raw).success;
  const job = CronJobSchema.safeParse(raw);
  return job.success && job.data.id === stem && checkCronExpression(job.data.cron, job.data.timezone).ok;
}

/** `count` malformed files spread over the three folders, the same for the same seed. */
export function badFiles(count: number, seed: number): BadFile[] {
  const folders: BadFile['folder'][] = ['.tasks', '.mailboxes', '.cron'];
  const files: BadFile[] = [];
  for (let i = 0; files.length < count; i++) {
    const folder = folders[i % 3]!;
    const file = fc.sample(
      fc.tuple(fc.boolean(), badStem(i)).chain(([oddName, stem]) => {
        const name = oddName ? stem : `bad-${folder.slice(1, 4)}-${i}`;
        return contentFor(folder, name).map((content) => ({ folder, name: `${name}.json`, content }));
      }),
      { seed: seed + i, numRuns: 1 },
    )[0]!;
    if (!acceptable(file)) files.push(file);
  }
  return files;
}

/** Team configs that must be refused at start with an error naming the file. */
export function badConfigs(count: number, seed: number): string[] {
  const config = fc.oneof(
    garbage.map(text),
    fc.record({ teammates: fc.constant([{ name: '../x' }]) }).map(json),
    fc.record({ teammates: fc.constant([{ name: 'a' }, { name: 'a' }]) }).map(json),
    fc.record({ teammates: fc.constant([{ name: 'lead' }]) }).map(json),
    fc.record({ leaseMs: fc.integer({ max: 0 }) }).map(json),
    fc.record({ model: fc.oneof(fc.integer(), fc.constant(null)) }).map(json),
    fc.record({ unknownSetting: fc.jsonValue() }).map(json),
    fc.record({ worktrees: fc.record({ mode: fc.constantFrom('sometimes', '') }) }).map(json),
    fc.constant(json({ model: 'scripted:.team/no-such-script.json' })),
  );
  return fc
    .sample(config, { seed, numRuns: count * 2 })
    .filter((c) => c.trim() !== '{}' && !/^\s*$/.test(c))
    .slice(0, count);
}
