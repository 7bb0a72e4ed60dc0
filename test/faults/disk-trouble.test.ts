/**
 * Fault 6, disk trouble. (a) A write that fails half-way: a store client in
 * its own process is capped (RLIMIT_FSIZE via `prlimit`) so a big write
 * fails with EFBIG after part of it reached the disk, as on a full disk. (b) A
 * folder that refuses writes under a running team (chmod, or `chattr +i` for
 * root, or the folder swapped for a file: see support/unwritable.ts). In both:
 * no JSON file is torn, the error is reported, and the work resumes once the
 * disk takes writes again.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Lead } from '../../src/lead/lead.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { spawnTs, type TsChild } from '../support/race/spawn-ts.js';
import { makeTeamRepo, startLead, until, type TeamRepo } from '../e2e/support/harness.js';
import { leftoverLocks, tasksOnDisk, unparsableTeamFiles, untilFiles } from './support/files.js';
import { makeUnwritable, type Unwritable } from './support/unwritable.js';

const CAP = 64 * 1024;

let repo: TeamRepo | undefined;
let lead: Lead | undefined;
let writer: TsChild | undefined;
let unwritable: Unwritable | undefined;
afterEach(async () => {
  unwritable?.restore();
  unwritable = undefined;
  writer?.child.kill('SIGKILL');
  writer = undefined;
  await lead?.stop('test over');
  lead = undefined;
  repo?.cleanup();
});

/** Sends one command to the writer and returns its JSON answer. */
async function ask(w: TsChild, command: string): Promise<{ ok: boolean; error?: string; thrown?: string }> {
  const n = w.lines.length;
  w.child.stdin!.write(`${command}\n`);
  await w.waitForLine(() => w.lines.length > n, 30_000);
  return JSON.parse(w.lines[n]!) as { ok: boolean; error?: string };
}

const tmpFiles = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.tmp')) : [];

it('a write that fails half-way (EFBIG past a file-size cap) leaves the old file whole, reports the error, and succeeds once the cap is lifted', async () => {
  const r = (repo = makeTeamRepo({ script: { rules: [] }, config: { teammates: [{ name: 'ann' }] } }));
  const tasks = await TaskStore.open(r.dir);
  await tasks.create({ id: 'big', subject: 'a task that will grow' });
  const mailbox = new MailboxStore(r.dir);
  await mailbox.send({ from: 'user', to: 'ann', content: 'the first message' });
  const taskBefore = readFileSync(join(r.dir, '.tasks', 'big.json'), 'utf8');
  // A send lands in the spool (`ann@<id>.json`); the inbox file is written when mail is taken.
  const inboxFile = join(r.dir, '.mailboxes', 'ann.json');
  const inboxBefore = existsSync(inboxFile) ? readFileSync(inboxFile, 'utf8') : '';
  // An archive just under the cap, so the next acknowledgement's append crosses it.
  const filler = JSON.stringify({
    id: 'm-filler',
    from: 'user',
    to: 'ann',
    type: 'message',
    content: 'f'.repeat(CAP - 2_000),
    metadata: {},
    ts: new Date().toISOString(),
  });
  mkdirSync(join(r.dir, '.mailboxes', 'archive'), { recursive: true });
  writeFileSync(join(r.dir, '.mailboxes', 'archive', 'ann.jsonl'), `${filler}\n`);

  const w = (writer = spawnTs(join(import.meta.dirname, 'support', 'disk-writer.ts'), [r.dir]));
  const pid = (await w.waitForLine((l) => l.startsWith('ready '))).slice('ready '.length);
  execFileSync('prlimit', ['--pid', pid, `--fsize=${CAP}:unlimited`]);

  const grown = await ask(w, 'update-task big 90000');
  expect(grown.ok).toBe(false);
  expect(grown.error).toMatch(/big\.json.*EFBIG|EFBIG.*big\.json/);
  const sent = await ask(w, 'send ann 90000');
  expect(sent.ok).toBe(false);
  expect(sent.error).toMatch(/ann\.json.*EFBIG|EFBIG/);
  expect((await ask(w, 'send ann 3000')).ok).toBe(true); // small writes still work
  const acked = await ask(w, 'take-ack ann');
  expect(acked.ok, 'the archive append crosses the cap').toBe(false);
  expect(acked.error).toMatch(/EFBIG/);

  // Nothing torn: the old task and a whole inbox, no temp file, no lock.
  expect(readFileSync(join(r.dir, '.tasks', 'big.json'), 'utf8')).toBe(taskBefore);
  expect(readFileSync(join(r.dir, '.mailboxes', 'ann.json'), 'utf8')).not.toBe(inboxBefore);
  expect(unparsableTeamFiles(r.dir).filter((f) => !f.endsWith('.jsonl'))).toEqual([]);
  expect([...tmpFiles(join(r.dir, '.tasks')), ...tmpFiles(join(r.dir, '.mailboxes'))]).toEqual([]);
  expect(leftoverLocks(r.dir)).toEqual([]);
  expect((await mailbox.peek('ann')).map((m) => m.content.length)).toEqual([17, 3000]);

  execFileSync('prlimit', ['--pid', pid, '--fsize=unlimited:unlimited']);
  expect((await ask(w, 'update-task big 90000')).ok).toBe(true);
  expect((await ask(w, 'send ann 90000')).ok).toBe(true);
  expect((await ask(w, 'take-ack ann')).ok).toBe(true);
  await tasks.refresh('big');
  expect(tasks.get('big')!.description).toHaveLength(90_000);
  expect(await mailbox.peek('ann')).toEqual([]);
  // Every message was archived exactly once; the torn fragment of the failed append is reported, not read.
  const delivered = await mailbox.history('ann');
  expect(delivered.map((m) => m.content.length).sort((a, b) => a - b)).toEqual(
    [17, 3000, CAP - 2_000, 90_000].sort((a, b) => a - b),
  );
  const problems = await mailbox.problems();
  expect(problems).toHaveLength(1);
  expect(problems[0]!.file).toMatch(/^\.mailboxes\/archive\/ann\.jsonl:\d+$/);
  w.child.stdin!.end();
}, 60_000);

it('a task folder that refuses writes under a running team: the unwritten completion is reported as such (the log agrees with the file), nothing is torn, the task is done once it is writable again', async () => {
  const r = (repo = makeTeamRepo({
    script: {
      rules: [
        {
          conversation: 'Task slow:',
          turn: 0,
          times: 'always',
          content: [
            {
              type: 'tool_use',
              name: 'bash',
              input: { command: 'while [ ! -f go ]; do sleep 0.05; done; echo released' },
            },
          ],
        },
        {
          conversation: 'Task slow:',
          turn: 1,
          times: 'always',
          content: [{ type: 'text', text: 'finished after the disk trouble' }],
        },
      ],
    },
    config: {
      teammates: [{ name: 'ann' }],
      worktrees: { mode: 'off' },
      permissions: { defaultMode: 'bypassPermissions' },
      leaseMs: 3_000,
    },
  }));
  r.writeTask('slow', { subject: 'wait for a file' });
  const started = await startLead(r);
  const l = (lead = started.lead);
  await untilFiles(
    () => tasksOnDisk(r.dir).get('slow')?.status === 'in_progress',
    60_000,
    'the task to start',
  );
  const tasksDir = join(r.dir, '.tasks');
  unwritable = makeUnwritable(tasksDir);
  writeFileSync(join(r.dir, 'go'), ''); // the tool ends; the teammate tries to complete the task
  // The completion and then the failure both fail to be written: the log says so, it does not claim a failure.
  const unrecorded = (e: (typeof started.events)[number]): boolean =>
    e.type === 'notice' && e.message.startsWith('task slow ') && e.message.includes('could not be written');
  await until(l, () => started.events.some(unrecorded), 60_000, 'the unwritten outcome to be reported');
  const reported = started.events.find(unrecorded) as { message: string };
  expect(reported.message).toMatch(/EACCES|EPERM|ENOTDIR|EROFS/);
  expect(reported.message).toContain('still says in_progress');
  expect(tasksOnDisk(r.dir).get('slow')?.status).toBe('in_progress');
  expect(started.events.some((e) => e.type === 'task_failed' && e.task === 'slow')).toBe(false);
  const technique = unwritable.technique;
  unwritable.restore();
  unwritable = undefined;

  await untilFiles(
    () => tasksOnDisk(r.dir).get('slow')?.status === 'completed',
    60_000,
    `the task to be done after the folder is writable again (${technique})`,
  );
  const task = tasksOnDisk(r.dir).get('slow')!;
  expect(task.result?.summary).toBe('finished after the disk trouble');
  expect(task.attempts).toBeGreaterThanOrEqual(1);
  await l.stop('checked');
  lead = undefined;
  expect(unparsableTeamFiles(r.dir)).toEqual([]);
  expect(tmpFiles(tasksDir)).toEqual([]);
  expect(leftoverLocks(r.dir)).toEqual([]);
  console.log(`disk-trouble: folder made unwritable by ${technique}`);
}, 120_000);
