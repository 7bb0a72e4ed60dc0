/**
 * Fault 3, bad files: a seeded generator drops malformed task, inbox and cron
 * files (not JSON, binary, wrong shapes, broken fields, names that are not
 * ids) into a running team, between valid ones; and malformed configs are
 * offered to a starting lead. The daemon stays up, every bad file is reported
 * with its name, and the valid tasks, mail and cron job around them work.
 * Reduced: 210 files, 10 configs. Full: 1,200 files, 40 configs.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Lead } from '../../src/lead/lead.js';
import type { Lead as LeadType } from '../../src/lead/lead.js';
import type { LoggedEvent } from '../../src/observe/types.js';
import { checkTeamFiles } from '../../src/store/check.js';
import { CronStore } from '../../src/store/cron/index.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { genericTaskScript, makeTeamRepo, startLead, until, type TeamRepo } from '../e2e/support/harness.js';
import { deepTaskText, mkfifo, SECRET, secretFile } from '../store/hostile-entries.js';
import { badConfigs, badFiles, type BadFile } from './support/bad-files.js';
import { tasksOnDisk, untilFiles } from './support/files.js';
import { budget, SEED, sized } from './support/scale.js';

const FILES = sized(1_200, 210);
const CONFIGS = sized(40, 10);
const VALID_TASKS = sized(40, 8);

let repo: TeamRepo | undefined;
let lead: LeadType | undefined;
afterEach(async () => {
  await lead?.stop('test over');
  lead = undefined;
  repo?.cleanup();
});

const cronDetail = (e: LoggedEvent): Record<string, unknown> | null =>
  e.type === 'cron_event' ? e.detail : null;
const label = (f: BadFile): string => `${f.folder}/${f.name}`;
/** One key per reported problem: the file, the field (when the report names one apart) and the message. */
const pairs = (list: { file: string; field?: string; message: string }[]): string[] =>
  list.map((p) => `${p.file} | ${p.field ?? ''} | ${p.message}`);

it(`malformed configs are refused at start with an error naming the file (${CONFIGS}, seed ${SEED})`, async () => {
  const r = (repo = makeTeamRepo({
    script: genericTaskScript(),
    config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' } },
  }));
  const configFile = join(r.dir, '.team', 'config.json');
  copyFileSync(configFile, `${configFile}.good`);
  for (const config of badConfigs(CONFIGS, SEED)) {
    writeFileSync(configFile, config);
    const started = await Lead.start({ repoRoot: r.dir });
    if (started.ok) await started.value.stop('should not have started');
    expect(started.ok, config.slice(0, 200)).toBe(false);
    if (!started.ok) expect(started.error, config.slice(0, 200)).toMatch(/config\.json|no-such-script\.json/);
  }
  copyFileSync(`${configFile}.good`, configFile);
  const good = await Lead.start({ repoRoot: r.dir });
  expect(good.ok).toBe(true);
  if (good.ok) await good.value.stop('ok');
}, 60_000);

it('hostile configs (nested 10,000 deep, a link to a secret, a FIFO, over 1 MiB) are refused at start naming the file, unread', async () => {
  const r = (repo = makeTeamRepo({ script: genericTaskScript(), config: { teammates: [{ name: 'ann' }] } }));
  const configFile = join(r.dir, '.team', 'config.json');
  const outside = mkdtempSync(join(tmpdir(), 'teamd-outside-'));
  try {
    const hostile: [string, () => void, RegExp][] = [
      ['deep', () => writeFileSync(configFile, deepTaskText(10_000)), /nested deeper than 64 levels/],
      ['big', () => writeFileSync(configFile, `{"model":"${'m'.repeat(1024 * 1024)}"}`), /over the limit/],
      ['link', () => symlinkSync(secretFile(outside), configFile), /symbolic link to outside the repository/],
      ['fifo', () => mkfifo(configFile), /FIFO/],
    ];
    for (const [what, place, reason] of hostile) {
      rmSync(configFile, { force: true });
      place();
      const started = await Lead.start({ repoRoot: r.dir });
      if (started.ok) await started.value.stop('should not have started');
      expect(started.ok, what).toBe(false);
      if (!started.ok) {
        expect(started.error, what).toMatch(/config\.json/);
        expect(started.error, what).toMatch(reason);
        expect(started.error, what).not.toContain(SECRET);
      }
    }
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
}, 60_000);

it(
  `${FILES} malformed files dropped into a running team: it stays up, reports each by name, and the valid work around them is done (seed ${SEED})`,
  async () => {
    const r = (repo = makeTeamRepo({
      script: genericTaskScript(),
      config: { teammates: [{ name: 'ann' }, { name: 'bob' }], worktrees: { mode: 'off' } },
    }));
    const started = await startLead(r);
    const l = (lead = started.lead);
    const cron = await new CronStore(r.dir).add({
      id: 'ok-cron',
      cron: '* * * * * *',
      prompt: 'CRON-PING',
      to: 'ann',
      recurring: false,
    });
    expect(cron.ok).toBe(true);

    const bad = badFiles(FILES, SEED);
    const valid = Array.from({ length: VALID_TASKS }, (_, i) => `v${i + 1}`);
    const every = Math.floor(bad.length / valid.length);
    let mailId = '';
    for (const [i, f] of bad.entries()) {
      writeFileSync(join(r.dir, f.folder, f.name), f.content);
      if (i % every === 0 && i / every < valid.length)
        r.writeTask(valid[i / every]!, { subject: `valid task ${i / every}` });
      if (i === Math.floor(bad.length / 2)) {
        const sent = await new MailboxStore(r.dir).send({
          from: 'user',
          to: 'ann',
          content: 'VALID-MAIL in the middle of the junk',
        });
        expect(sent.ok).toBe(true);
        if (sent.ok) mailId = sent.value.id;
      }
      if (i % 20 === 19) await new Promise((resolve) => setImmediate(resolve)); // let the daemon interleave
    }

    await untilFiles(
      () => valid.every((id) => tasksOnDisk(r.dir).get(id)?.status === 'completed'),
      budget(600_000, 90_000),
      'the valid tasks',
    );
    await until(
      l,
      () => started.events.some((e) => e.type === 'message_delivered' && e.id === mailId),
      60_000,
      'the valid message',
    );
    await until(
      l,
      () =>
        started.events.some(
          (e) => cronDetail(e)?.type === 'cron_delivered' && cronDetail(e)?.jobId === 'ok-cron',
        ),
      60_000,
      'the valid cron fire',
    );

    // Up the whole time: no teammate crashed, every one is idle again.
    expect(started.events.filter((e) => e.type === 'teammate_crashed')).toEqual([]);
    await until(
      l,
      () => l.pool.names().every((n) => l.pool.stateOf(n)?.state === 'idle'),
      60_000,
      'idle teammates',
    );

    // Every bad task file is reported while the daemon runs, each problem once.
    const taskProblems = () =>
      started.events.filter((e) => e.type === 'task_problem') as { file: string; message: string }[];
    const badTasks = bad.filter((f) => f.folder === '.tasks').map(label);
    await until(
      l,
      () => badTasks.every((f) => taskProblems().some((p) => p.file === f)),
      30_000,
      'a task_problem for every bad task file',
    );
    expect(new Set(pairs(taskProblems())).size).toBe(taskProblems().length);
    // Every bad task and inbox file is among the problems the stores report, by name.
    const check = await checkTeamFiles(r.dir);
    const reported = new Set(check.problems.map((p) => p.file));
    expect(bad.filter((f) => f.folder !== '.cron' && !reported.has(label(f))).map(label)).toEqual([]);
    // Every bad cron file is reported by the scheduler, each problem once.
    const invalid = started.events.map(cronDetail).filter((d) => d?.type === 'cron_job_invalid') as {
      file: string;
      field?: string;
      message: string;
    }[];
    expect(
      bad.filter((f) => f.folder === '.cron' && !invalid.some((d) => d.file === label(f))).map(label),
    ).toEqual([]);
    expect(new Set(pairs(invalid)).size).toBe(invalid.length);

    // A lead started on these files reports each bad task file once per problem.
    await l.stop('restart');
    lead = undefined;
    const again = await startLead(r);
    lead = again.lead;
    const problems = again.events.filter((e) => e.type === 'task_problem') as {
      file: string;
      message: string;
    }[];
    expect(
      bad.filter((f) => f.folder === '.tasks' && !problems.some((p) => p.file === label(f))).map(label),
    ).toEqual([]);
    expect(new Set(pairs(problems)).size).toBe(problems.length);
    expect(readFileSync(join(r.dir, '.tasks', 'v1.json'), 'utf8')).toContain('"completed"');
  },
  budget(900_000, 150_000),
);
