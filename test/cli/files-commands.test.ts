import { execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeDefaultConfig } from '../../src/config/load.js';
import { CronStore } from '../../src/store/cron/index.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { tempRepo } from '../store/temp-repo.js';
import { errorLine, teamd } from './run-teamd.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
/** Commands run from a folder outside the repository and find it through --dir. */
let elsewhere: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => {
  repo = await tempRepo('teamd-cli-');
  elsewhere = await tempRepo('teamd-cli-cwd-');
});
afterEach(async () => {
  await repo.cleanup();
  await elsewhere.cleanup();
});

const at = (...args: string[]) => teamd(elsewhere.root, ...args, '--dir', repo.root);

describe('teamd init', () => {
  it('finds the git root from a subfolder, creates everything, and is idempotent', async () => {
    execFileSync('git', ['init', '-q'], { cwd: repo.root });
    await writeFile(join(repo.root, '.gitignore'), 'node_modules/');
    await mkdir(join(repo.root, 'src', 'deep'), { recursive: true });
    const first = await teamd(join(repo.root, 'src', 'deep'), 'init');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('.team/config.json');
    for (const dir of ['.tasks', '.mailboxes/archive', '.cron', '.team/state']) {
      await expect(
        readFile(join(repo.root, dir, 'x')).catch((e: NodeJS.ErrnoException) => e.code),
      ).resolves.toBe('ENOENT');
    }
    const config = JSON.parse(await readFile(join(repo.root, '.team', 'config.json'), 'utf8'));
    expect(config.teammates.map((t: { name: string }) => t.name)).toEqual(['worker-1', 'worker-2']);
    const ignore = await readFile(join(repo.root, '.gitignore'), 'utf8');
    expect(ignore).toBe('node_modules/\n.worktrees/\n.team/state/\n.locks/\n');

    const second = await teamd(repo.root, 'init');
    expect(second).toMatchObject({ code: 0, stdout: `already initialised: ${repo.root}\n` });
    expect(await readFile(join(repo.root, '.gitignore'), 'utf8')).toBe(ignore);
  });
});

describe('teamd task', () => {
  it('add, ls, show and cancel, with one-line errors on bad input', async () => {
    expect(
      await at('task', 'add', 'Design the AST', '--id', 'design-ast', '--description', 'nodes, spans'),
    ).toMatchObject({
      code: 0,
      stdout: 'design-ast\n',
    });
    const [parser, ghost] = await Promise.all([
      at(
        'task',
        'add',
        'Write the parser',
        '--id',
        'parser',
        '--blocked-by',
        'design-ast',
        '--owner',
        'worker-1',
        '--priority',
        '3',
      ),
      at('task', 'add', 'x', '--blocked-by', 'design-ast,ghost'),
    ]);
    expect(parser).toMatchObject({ code: 0, stdout: 'parser\n' });
    expect(errorLine(ghost)).toBe('teamd: error: blockedBy: no task "ghost"');

    const [table, show] = await Promise.all([at('task', 'ls'), at('task', 'show', 'parser', '--json')]);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+STATE\s+OWNER\s+WAITING ON\s+SUBJECT$/);
    expect(table.stdout).toMatch(/design-ast\s+ready\s+-\s+-\s+Design the AST/);
    expect(table.stdout).toMatch(/parser\s+blocked\s+worker-1\s+design-ast\s+Write the parser/);
    expect(JSON.parse(show.stdout)).toMatchObject({
      id: 'parser',
      priority: 3,
      ready: false,
      waitingOn: ['design-ast'],
    });

    const [cancelled, traversal] = await Promise.all([
      at('task', 'cancel', 'parser'),
      at('task', 'cancel', '../x'),
    ]);
    expect(cancelled).toMatchObject({ code: 0, stdout: 'cancelled parser\n' });
    expect(errorLine(traversal)).toMatch(/^teamd: error: invalid task id "\.\.\/x": must match/);
    expect((await TaskStore.open(repo.root)).get('parser')?.status).toBe('cancelled');
  });
});

describe('teamd send and inbox', () => {
  it('sends to the roster from the config, shows the inbox and its history', async () => {
    await writeDefaultConfig(repo.root);
    const [sent, unknown] = await Promise.all([
      at('send', 'worker-1', 'Start on the parser', '--from', 'lead', '--type', 'task_assigned'),
      at('send', 'bob', 'hello'),
    ]);
    expect(sent.code).toBe(0);
    const id = sent.stdout.trim();
    expect(id).toMatch(/^m-/);
    expect(errorLine(unknown)).toBe(
      'teamd: error: unknown recipient "bob"; valid: lead, user, worker-1, worker-2',
    );

    const inbox = await at('inbox', 'worker-1');
    expect(inbox.stdout).toMatch(/lead\s+task_assigned\s+unread\s+Start on the parser/);
    const mail = new MailboxStore(repo.root);
    await mail.ack(
      'worker-1',
      (await mail.take('worker-1')).map((m) => m.id),
    );
    const history = await at('inbox', 'worker-1', '--history', '--json');
    expect(JSON.parse(history.stdout)).toEqual([
      expect.objectContaining({ id, from: 'lead', content: 'Start on the parser' }),
    ]);
  });
});

describe('teamd cron', () => {
  it('add, ls and rm, refusing a bad expression', async () => {
    const [added, short] = await Promise.all([
      at(
        'cron',
        'add',
        '0 9 * * 1-5',
        'Summarise yesterday’s merges',
        '--to',
        'lead',
        '--tz',
        'Europe/Paris',
        '--id',
        'standup',
      ),
      at('cron', 'add', '* * *', 'x'),
    ]);
    expect(added).toMatchObject({ code: 0, stdout: 'standup\n' });
    expect(errorLine(short)).toMatch(/^teamd: error: cron: "\* \* \*" has 3 field\(s\); expected 5/);

    const listed = JSON.parse((await at('cron', 'ls', '--json')).stdout);
    expect(listed).toEqual([
      expect.objectContaining({
        id: 'standup',
        to: 'lead',
        timezone: 'Europe/Paris',
        nextFireAt: expect.any(String),
      }),
    ]);
    expect(await at('cron', 'rm', 'standup')).toMatchObject({ code: 0, stdout: 'removed standup\n' });
    expect((await new CronStore(repo.root).list()).jobs).toEqual([]);
  });
});

describe('teamd validate', () => {
  it('passes the example team and lists each problem with its file', async () => {
    await cp(join(import.meta.dirname, '../../.tasks.example'), join(repo.root, '.tasks'), {
      recursive: true,
    });
    await cp(join(import.meta.dirname, '../../.mailboxes.example'), join(repo.root, '.mailboxes'), {
      recursive: true,
    });
    const ok = await at('validate');
    expect(ok).toMatchObject({
      code: 0,
      stdout: 'ok: 7 task(s), 3 inbox(es), 0 cron job(s), config valid\n',
    });

    await writeFile(
      join(repo.root, '.tasks', 'loop.json'),
      JSON.stringify({ subject: 'x', blockedBy: ['loop'] }),
    );
    await writeFile(join(repo.root, '.tasks', 'broken.json'), '{');
    await mkdir(join(repo.root, '.cron'));
    await writeFile(
      join(repo.root, '.cron', 'bad.json'),
      JSON.stringify({ id: 'bad', cron: '* *', prompt: 'x', createdAt: '2026-01-01T00:00:00.000Z' }),
    );
    const bad = await at('validate');
    expect(bad.code).toBe(1);
    expect(bad.stdout.trim().split('\n').sort()).toEqual([
      expect.stringMatching(/^\.cron\/bad\.json: cron: "\* \*" has 2 field/),
      expect.stringMatching(/^\.tasks\/broken\.json: invalid JSON/),
      '.tasks/loop.json: blockedBy: dependency cycle among loop',
    ]);
    expect(errorLine(bad)).toBe('teamd: error: 3 problem(s) found');
  });
});

describe('teamd itself', () => {
  it('exits non-zero with one line for an unknown command or a missing argument', async () => {
    const [unknown, missing] = await Promise.all([at('task', 'frobnicate'), at('task', 'add')]);
    expect(errorLine(unknown)).toBe("teamd: error: unknown command 'frobnicate'");
    expect(errorLine(missing)).toBe("teamd: error: missing required argument 'subject'");
  });
});
