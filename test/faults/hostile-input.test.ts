/**
 * Fault 5, hostile input: traversal and odd names everywhere a name or a path
 * enters — task ids, agent names, cron ids, `send` recipients (stores, CLI and
 * the teammates' tools), file tool paths, a symlink out of the worktree —
 * oversized files and messages, binary content. Each is refused with a clear
 * error, and nothing is written outside the repository's teamd folders
 * (a snapshot of the sandbox around the repository, before and after).
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { existsSync, readFileSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loadTranscript } from '../../src/agent/transcript.js';
import { runCli } from '../../src/cli/main.js';
import type { Lead } from '../../src/lead/lead.js';
import type { ContentBlock } from '../../src/model/types.js';
import { CronStore } from '../../src/store/cron/index.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { readEvents } from '../../src/observe/event-log.js';
import { spawnCli, waitForOutput, type CliRun } from '../e2e/support/cli.js';
import { genericTaskScript, startLead } from '../e2e/support/harness.js';
import { deepTaskText, dropHostileEntries, hostileEntry, mkfifo, SECRET, secretFile } from '../store/hostile-entries.js';
import { hostileFolderHolds, SMALLEST_CAP } from '../store/hostile-property.js';
import { tasksOnDisk, untilFiles, walk } from './support/files.js';
import { processesInside, teammatesIdle } from './support/processes.js';
import { changedPaths, makeSandboxRepo, snapshot, type Sandbox } from './support/sandbox.js';
import { SEED, sized } from './support/scale.js';

const HOSTILE = [
  '../x',
  '../../etc/passwd',
  '/etc/passwd',
  'a/b',
  'a\\b',
  '..',
  '.',
  '',
  ' ',
  '-x',
  '.hidden',
  'x'.repeat(65),
  'ü',
  'a\u0000b',
  'a\nb',
  '%2e%2e%2fx',
  '~root',
  '$(touch pwned)',
  '`id`',
  '*',
  'a..b',
];
const TEAMD_FOLDERS = /^repo\/(\.tasks|\.mailboxes|\.cron|\.team|\.worktrees)(\/|$)/;

let box: Sandbox | undefined;
let lead: Lead | undefined;
let daemon: CliRun | undefined;
afterEach(async () => {
  await lead?.stop('test over');
  lead = undefined;
  if (daemon && daemon.child.exitCode === null && daemon.child.signalCode === null) daemon.child.kill('SIGKILL');
  daemon = undefined;
  box?.cleanup();
});

const refusedAll = async (
  what: string,
  attempt: (name: string) => Promise<{ ok: boolean; error?: string } | unknown[]>,
): Promise<void> => {
  for (const name of HOSTILE) {
    const r = await attempt(name);
    if (Array.isArray(r)) expect(r, `${what} ${JSON.stringify(name)}`).toEqual([]);
    else {
      expect(r.ok, `${what} ${JSON.stringify(name)}`).toBe(false);
      expect(r.error, `${what} ${JSON.stringify(name)}`).toMatch(/invalid|must|unknown|no task|not/i);
    }
  }
};

it('the stores and the CLI refuse every traversal or odd name, oversized input, and keep binary-looking text intact', async () => {
  const b = (box = makeSandboxRepo({ script: { rules: [] }, config: { teammates: [{ name: 'ann' }] } }));
  const before = snapshot(b.root);
  const tasks = await TaskStore.open(b.dir);
  const mailbox = new MailboxStore(b.dir, { roster: ['lead', 'user', 'ann'] });
  const cron = new CronStore(b.dir, { roster: ['lead', 'user', 'ann'] });
  expect((await tasks.create({ id: 'ok', subject: 'a fine task' })).ok).toBe(true);

  await refusedAll('task id', (id) => tasks.create({ id, subject: 's' }));
  await refusedAll('blockedBy', (id) => tasks.create({ subject: 's', blockedBy: [id] }));
  await refusedAll('claim by', (owner) => tasks.claim('ok', owner, 60_000));
  await refusedAll('claim of', (id) => tasks.claim(id, 'ann', 60_000));
  await refusedAll('cancel', (id) => tasks.cancel(id));
  await refusedAll('send to', (to) => mailbox.send({ from: 'user', to, content: 'hi' }));
  await refusedAll('ack of', (agent) => mailbox.ack(agent, ['m']));
  await refusedAll('take of', (agent) => mailbox.take(agent));
  await refusedAll('cron id', (id) => cron.add({ id, cron: '* * * * *', prompt: 'p' }));
  await refusedAll('cron target', (to) => cron.add({ cron: '* * * * *', prompt: 'p', to }));
  await refusedAll('cron rm', (id) => cron.remove(id));

  // Oversized: refused naming the field.
  const big = (await tasks.create({ subject: 's', description: 'd'.repeat(100_001) })) as {
    ok: boolean;
    error?: string;
  };
  expect(big.error).toMatch(/description/);
  expect(
    ((await mailbox.send({ from: 'user', to: 'ann', content: 'c'.repeat(1_000_001) })) as { error?: string })
      .error,
  ).toMatch(/content/);
  expect(
    ((await cron.add({ cron: '* * * * *', prompt: 'p'.repeat(100_001) })) as { error?: string }).error,
  ).toMatch(/prompt/);
  // Binary-looking text is data: stored escaped and read back byte for byte.
  const binary = 'NUL\u0000 ESC\u001b BEL\u0007 \ufffd end';
  const sent = await mailbox.send({ from: 'user', to: 'ann', content: binary });
  expect(sent.ok).toBe(true);
  expect((await mailbox.peek('ann'))[0]?.content).toBe(binary);

  // The real CLI (in this process) on the same names: a non-zero exit, and nothing written.
  const quiet = {
    err: process.stderr.write.bind(process.stderr),
    out: process.stdout.write.bind(process.stdout),
  };
  process.stderr.write = () => true;
  process.stdout.write = () => true;
  try {
    for (const name of HOSTILE.filter((n) => n !== '' && !n.startsWith('-'))) {
      for (const argv of [
        ['send', name, 'hi'],
        ['task', 'add', 'subject', '--id', name],
        ['task', 'show', name],
        ['cron', 'add', '* * * * *', 'p', '--id', name],
        ['cron', 'add', '* * * * *', 'p', '--to', name],
        ['inbox', name],
      ]) {
        expect(await runCli(['node', 'teamd', ...argv, '--dir', b.dir]), `teamd ${argv.join(' ')}`).not.toBe(
          0,
        );
      }
    }
  } finally {
    process.stderr.write = quiet.err;
    process.stdout.write = quiet.out;
  }
  const changed = changedPaths(before, snapshot(b.root));
  expect(changed.filter((p) => !TEAMD_FOLDERS.test(p))).toEqual([]);
  expect(readdirSync(join(b.dir, '.tasks')).filter((n) => !n.startsWith('.'))).toEqual(['ok.json']);
}, 60_000);

/** The hostile tool calls a teammate's model makes, and what each refusal must say. */
const calls = (outside: string): { name: string; input: Record<string, unknown>; refusal: RegExp }[] => [
  {
    name: 'write',
    input: { file_path: '../../../outside/rel.txt', content: 'pwned' },
    refusal: /outside the working directory/,
  },
  {
    name: 'write',
    input: { file_path: '../escape.txt', content: 'pwned' },
    refusal: /outside the working directory/,
  },
  {
    name: 'write',
    input: { file_path: `${outside}/abs.txt`, content: 'pwned' },
    refusal: /outside the working directory/,
  },
  {
    name: 'write',
    input: { file_path: 'link/through-link.txt', content: 'pwned' },
    refusal: /outside the working directory/,
  },
  {
    name: 'edit',
    input: { file_path: 'link/target.txt', old_string: 'outside', new_string: 'pwned' },
    refusal: /outside the working directory/,
  },
  { name: 'read', input: { file_path: '/etc/passwd' }, refusal: /outside the working directory/ },
  { name: 'read', input: { file_path: 'big.txt' }, refusal: /byte limit/ },
  { name: 'read', input: { file_path: 'blob.bin' }, refusal: /binary/ },
  { name: 'glob', input: { pattern: '*', path: '../../..' }, refusal: /outside the working directory/ },
  { name: 'grep', input: { pattern: 'root', path: '/etc' }, refusal: /outside the working directory/ },
  { name: 'team', input: { do: 'send', to: '../lead', text: 'hi' }, refusal: /Unknown recipient/ },
  { name: 'team', input: { do: 'send', to: 'nobody', text: 'hi' }, refusal: /Unknown recipient/ },
  { name: 'team', input: { do: 'get', id: '../../pwned' }, refusal: /No task/ },
  { name: 'team', input: { do: 'new', text: 's', blockedBy: ['../x'] }, refusal: /blockedBy|unknown/ },
  { name: 'team', input: { do: 'cancel', id: '../x' }, refusal: /invalid id|no task/ },
  {
    name: 'bash',
    input: { command: `echo pwned > ${outside}/bash.txt` },
    refusal: /denied|not allowed|permission|no answer/i,
  },
];

it('a teammate whose model asks for hostile paths, names and recipients gets a clear refusal for each, and nothing leaves the teamd folders', async () => {
  const b = (box = makeSandboxRepo({ script: { rules: [] }, config: {} }));
  const hostile = calls(b.outside);
  const script = {
    rules: [
      {
        conversation: 'Task hostile:',
        turn: 0,
        content: [
          ...hostile.map((c) => ({ type: 'tool_use' as const, name: c.name, input: c.input })),
          {
            type: 'tool_use' as const,
            name: 'write',
            input: { file_path: 'fine.txt', content: 'a legitimate write\n' },
          },
        ],
      },
      {
        conversation: 'Task hostile:',
        turn: 1,
        content: [{ type: 'text' as const, text: 'done with the hostile calls' }],
      },
    ],
  };
  writeFileSync(b.scriptPath, JSON.stringify(script));
  writeFileSync(
    join(b.dir, '.team', 'config.json'),
    JSON.stringify({
      model: `scripted:${b.scriptPath}`,
      teammates: [{ name: 'ann' }],
      worktrees: { mode: 'per-task' },
      approvalTimeoutMs: 1_500,
    }),
  );
  symlinkSync(b.outside, join(b.dir, 'link')); // committed: every worktree gets a link out of itself
  writeFileSync(join(b.dir, 'big.txt'), 'a'.repeat(20 * 1024 * 1024 + 1));
  writeFileSync(
    join(b.dir, 'blob.bin'),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0xfe, 0, 1, 2, 3]),
  );
  b.git('add', '-A');
  b.git(
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@example.invalid',
    'commit',
    '-q',
    '-m',
    'a link out, a big file, a binary file',
  );
  b.writeTask('hostile', { subject: 'try to escape' });
  const before = snapshot(b.root);

  const started = await startLead(b);
  lead = started.lead;
  await untilFiles(
    () => tasksOnDisk(b.dir).get('hostile')?.status === 'completed',
    90_000,
    'the task to be merged',
  );
  await lead.stop('done');
  lead = undefined;

  const dir = join(b.dir, '.team', 'state', 'transcripts', 'ann');
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  const loaded = await loadTranscript(dir, file!.slice(0, -'.jsonl'.length));
  if (!loaded.ok) throw new Error(loaded.error);
  const blocks = loaded.value.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
  const uses = blocks.filter((x): x is Extract<ContentBlock, { type: 'tool_use' }> => x.type === 'tool_use');
  const results = new Map(
    blocks
      .filter((x): x is Extract<ContentBlock, { type: 'tool_result' }> => x.type === 'tool_result')
      .map((x) => [x.tool_use_id, x]),
  );
  const text = (r: Extract<ContentBlock, { type: 'tool_result' }>) =>
    typeof r.content === 'string'
      ? r.content
      : r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  for (const [i, c] of hostile.entries()) {
    const result = results.get(uses[i]!.id)!;
    expect(result.is_error, `${c.name} ${JSON.stringify(c.input)}: ${text(result)}`).toBe(true);
    expect(text(result), `${c.name} ${JSON.stringify(c.input)}`).toMatch(c.refusal);
  }
  expect(results.get(uses.at(-1)!.id)!.is_error).not.toBe(true);
  expect(b.git('show', 'teamd/integration:fine.txt')).toBe('a legitimate write\n');

  // Outside the teamd folders, the sandbox is as it was.
  const changed = changedPaths(before, snapshot(b.root));
  expect(changed.filter((p) => !TEAMD_FOLDERS.test(p))).toEqual([]);
  expect(readFileSync(join(b.outside, 'target.txt'), 'utf8')).toBe('outside, untouched\n');
  expect(existsSync(join(b.dir, '.tasks', 'pwned.json')) || existsSync(join(b.root, 'pwned'))).toBe(false);
  const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: b.dir, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  expect(dirty.filter((l) => !/^\?\? \.(tasks|mailboxes|cron)\/$/.test(l))).toEqual([]);
}, 120_000);

const RUNS = sized(300, 10);

it(`generated hostile team folders (${RUNS} runs, seed ${SEED}): no store throws or blocks, every file is named, the valid files work`, async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(hostileEntry(SMALLEST_CAP), { minLength: 1, maxLength: sized(20, 6) }), hostileFolderHolds),
    { numRuns: RUNS, seed: SEED },
  );
}, sized(1_200_000, 60_000));

/** Resident memory of `pid` in MiB, from /proc. */
const rssMiB = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

it('a real daemon with FIFOs, links to /dev/zero and to a secret, dangling links and a task nested 5,000 deep in .tasks (at boot and while running): it claims the other tasks, reports each file once, never echoes the secret, and stops on SIGTERM', async () => {
  const b = (box = makeSandboxRepo({
    script: genericTaskScript(),
    config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' } },
  }));
  const tasks = join(b.dir, '.tasks');
  const atBoot = dropHostileEntries(tasks, b.outside);
  b.writeTask('t1', { subject: 'make t1' });
  const run = (daemon = spawnCli(['start', '--foreground', '--dir', b.dir]));
  await waitForOutput(run, /lead started/, 60_000);
  mkfifo(join(tasks, 'late-fifo.json'));
  symlinkSync('/dev/zero', join(tasks, 'late-zero.json'));
  symlinkSync(secretFile(b.outside), join(tasks, 'late-secret.json'));
  // Written whole (a rename): a half-written file is a different problem, reported on its own.
  writeFileSync(join(tasks, '.late-deep.tmp'), deepTaskText(5_000));
  renameSync(join(tasks, '.late-deep.tmp'), join(tasks, 'late-deep.json'));
  b.writeTask('t2', { subject: 'make t2' });
  b.writeTask('t3', { subject: 'make t3', blockedBy: ['t2'] });
  const done = () => ['t1', 't2', 't3'].every((id) => tasksOnDisk(b.dir).get(id)?.status === 'completed');
  await untilFiles(done, 90_000, 'the valid tasks to be completed');
  expect(rssMiB(run.child.pid!)).toBeLessThan(1_024);

  const hostile = [...Object.values(atBoot), 'late-fifo', 'late-zero', 'late-secret', 'late-deep'];
  const reported = () => readEvents(b.dir).flatMap((e) => (e.type === 'task_problem' ? [e.file] : []));
  await untilFiles(() => hostile.every((n) => reported().includes(`.tasks/${n}.json`)), 30_000, 'every hostile file reported');
  const counts = new Map<string, number>();
  for (const f of reported()) counts.set(f, (counts.get(f) ?? 0) + 1);
  expect([...counts].filter(([, n]) => n > 1)).toEqual([]);

  const quiet = () =>
    teammatesIdle(join(b.dir, '.team', 'state', 'agents'), ['ann'], run.child.pid!) &&
    processesInside(b.dir, [run.child.pid!]).length === 0;
  await untilFiles(quiet, 60_000, 'an idle teammate');
  const how = new Promise<string>((res) => run.child.once('exit', (code, signal) => res(`${code}/${signal}`)));
  run.child.kill('SIGTERM');
  expect(await how, run.output()).toBe('0/null');
  expect(run.output()).not.toContain(SECRET);
  for (const file of walk(join(b.dir, '.team'))) expect(readFileSync(file, 'utf8'), file).not.toContain(SECRET);
}, 180_000);
