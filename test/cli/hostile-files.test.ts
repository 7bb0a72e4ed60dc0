/**
 * The real CLI (`teamd validate`, `task ls`, `status`) over hostile team
 * files (issue 16, items 4, 5, 9 and 11): each is reported with its file,
 * nothing behind a link is echoed, a broken config does not stop `status`,
 * and a huge blocker list stays on a short line.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { deepTaskText, SECRET, secretFile } from '../store/hostile-entries.js';
import { teamd } from './run-teamd.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function repo(): { dir: string; outside: string } {
  root = mkdtempSync(join(tmpdir(), 'teamd-cli-hostile-'));
  const dir = join(root, 'repo');
  mkdirSync(join(dir, '.tasks'), { recursive: true });
  mkdirSync(join(dir, '.team'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  writeFileSync(join(dir, '.team', 'config.json'), JSON.stringify({ teammates: [{ name: 'ann' }] }));
  writeFileSync(join(dir, '.tasks', 'ok.json'), JSON.stringify({ subject: 'a fine task' }));
  return { dir, outside: join(root, 'outside') };
}

const longestLine = (text: string): number => Math.max(...text.split('\n').map((l) => l.length));

it('a task nested 5,000 deep and a link to a secret: validate names both, task ls and status still work, nothing echoes the secret', async () => {
  const { dir, outside } = repo();
  writeFileSync(join(dir, '.tasks', 'deep.json'), deepTaskText(5_000));
  symlinkSync(secretFile(outside), join(dir, '.tasks', 'shadow.json'));
  const validate = await teamd(dir, 'validate');
  expect(validate.code).toBe(1);
  expect(validate.stdout).toMatch(/\.tasks\/deep\.json: invalid JSON: nested deeper than 64 levels/);
  expect(validate.stdout).toMatch(/\.tasks\/shadow\.json: is a symbolic link to outside the repository/);
  const ls = await teamd(dir, 'task', 'ls');
  expect(ls.code, ls.stderr).toBe(0);
  expect(ls.stdout).toMatch(/ok/);
  expect(ls.stderr).toMatch(/deep\.json/);
  const status = await teamd(dir, 'status');
  expect(status.code, status.stderr).toBe(0);
  expect(status.stdout).toMatch(/problem: \.tasks\/deep\.json/);
  for (const run of [validate, ls, status]) expect(run.stdout + run.stderr).not.toContain(SECRET);
}, 60_000);

it('a team folder that is a link is reported by validate and status, and the lead refuses to start', async () => {
  const { dir, outside } = repo();
  mkdirSync(join(outside, 'cron'), { recursive: true });
  symlinkSync(join(outside, 'cron'), join(dir, '.cron'));
  const validate = await teamd(dir, 'validate');
  expect(validate.code).toBe(1);
  expect(validate.stdout).toMatch(/^\.cron: is a symbolic link to outside the repository.*team folders must be real folders/m);
  const status = await teamd(dir, 'status');
  expect(status.stdout).toMatch(/problem: \.cron: is a symbolic link/);
  const start = await teamd(dir, 'start', '--foreground');
  expect(start.code).not.toBe(0);
  expect(start.stderr).toMatch(/\.cron: is a symbolic link to outside the repository/);
}, 60_000);

it('status runs with a truncated config and shows its problem; a 100,000-entry blocker list is cut to a few ids', async () => {
  const { dir } = repo();
  writeFileSync(join(dir, '.team', 'config.json'), '{"teammates": [{"name": "an');
  const json = await teamd(dir, 'status', '--json');
  expect(JSON.parse(json.stdout)).toMatchObject({ problems: [{ file: '.team/config.json' }] });
  const blockers = Array.from({ length: 100_000 }, (_, i) => `b${i}`);
  writeFileSync(join(dir, '.tasks', 'wide.json'), JSON.stringify({ subject: 'waits a lot', blockedBy: blockers }));
  const status = await teamd(dir, 'status');
  expect(status.code, status.stderr).toBe(0);
  expect(status.stdout).toMatch(/problem: \.team\/config\.json: invalid JSON/);
  expect(status.stdout).toMatch(/wide \[pending\] waits a lot — waiting for b0, b1, b2, b3, b4 and 99995 more/);
  expect(status.stdout).toMatch(/and 99980 more problem\(s\) \(teamd validate lists them all\)/);
  expect(longestLine(status.stdout)).toBeLessThan(400);
}, 60_000);
