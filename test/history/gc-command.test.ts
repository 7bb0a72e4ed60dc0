/**
 * `teamd gc` and the readers after it, as real processes: the dry run changes
 * nothing; the run archives the old finished task and rotates the event log;
 * `task show`, `task ls --all`, `validate` and `logs --events` (with
 * `--tail`, `--type`, `--since`) still read what moved.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskStore } from '../../src/store/tasks/index.js';
import { teamd } from '../cli/run-teamd.js';
import { snapshotTree, tempRepo } from '../store/temp-repo.js';

let repo: { root: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  repo = await tempRepo('teamd-gc-');
  execFileSync('git', ['init', '-q', '-b', 'main', repo.root]);
  mkdirSync(join(repo.root, '.team', 'state'), { recursive: true });
  writeFileSync(join(repo.root, '.team', 'config.json'), JSON.stringify({ history: { rotateBytes: 1000 } }));
  const old = new Date('2026-10-01T00:00:00Z');
  const store = await TaskStore.open(repo.root, { now: () => old });
  await store.create({ id: 'done', subject: 'finished long ago' });
  await store.claim('done', 'w', 60_000);
  await store.complete('done', 'w', 'all good');
  await store.create({ id: 'later', subject: 'waits on done', blockedBy: ['done'] });
  const events = Array.from({ length: 40 }, (_, i) =>
    JSON.stringify({
      ts: new Date(Date.UTC(2026, 9, 1, 0, i)).toISOString(),
      type: i % 2 ? 'notice' : 'daemon_stopped',
      message: `n${i}`,
    }),
  );
  writeFileSync(join(repo.root, '.team', 'state', 'events.jsonl'), events.join('\n') + '\n');
});
afterEach(() => repo.cleanup());

describe('teamd gc', () => {
  it('--dry-run says what it would do and changes nothing; the run does it and says so', async () => {
    const before = await snapshotTree(repo.root);
    const dry = await teamd(repo.root, 'gc', '--dry-run');
    expect(dry.stderr).toBe('');
    expect(dry.stdout).toContain('would archive task done → .tasks/archive/done.json');
    expect(dry.stdout).toContain('would rotate .team/state/events.jsonl');
    expect(await snapshotTree(repo.root)).toEqual(before);

    const run = await teamd(repo.root, 'gc');
    expect(run.stdout).toContain('archived task done → .tasks/archive/done.json');
    expect(run.stdout).toMatch(
      /rotated \.team\/state\/events\.jsonl → \.team\/state\/segments\/events\.\S+\.jsonl/,
    );
    expect(existsSync(join(repo.root, '.tasks', 'done.json'))).toBe(false);
    expect(existsSync(join(repo.root, '.team', 'state', 'events.jsonl'))).toBe(false);

    const show = await teamd(repo.root, 'task', 'show', 'done');
    expect(show.stdout).toMatch(/status: +completed/);
    expect(show.stdout).toContain('.tasks/archive/done.json');
    expect((await teamd(repo.root, 'task', 'ls', '--all')).stdout).toMatch(/done +completed/);
    expect((await teamd(repo.root, 'validate')).stdout).toContain('ok: 1 task(s) (and 1 archived)');

    const tail = await teamd(repo.root, 'logs', '--events', '--tail', '3', '--type', 'notice', '--json');
    expect(
      tail.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).message),
    ).toEqual(['n35', 'n37', 'n39']);
    const since = await teamd(repo.root, 'logs', '--events', '--since', '2026-10-01T00:36:00Z', '--json');
    expect(
      since.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).message),
    ).toEqual(['n36', 'n37', 'n38', 'n39']);
    const all = await teamd(repo.root, 'logs', '--events', '--json');
    expect(all.stdout.trim().split('\n')).toHaveLength(40);
    expect((await teamd(repo.root, 'logs', '--events', '--since', 'soon')).stderr).toContain(
      '--since: not a time or an age',
    );
  });
});
