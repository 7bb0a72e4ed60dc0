/**
 * A team repository inside a sandbox folder, next to an `outside/` folder it
 * must never touch, with a snapshot of every file's size and mtime so a test
 * can name each path that changed.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { ScriptInput } from '../../../src/model/scripted/schema.js';
import type { TeamRepo } from '../../e2e/support/harness.js';
import { walk } from './files.js';

export interface Sandbox extends TeamRepo {
  root: string;
  outside: string;
}

export function makeSandboxRepo(opts: { script: ScriptInput; config: Record<string, unknown> }): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'teamd-sandbox-'));
  const dir = join(root, 'repo');
  const outside = join(root, 'outside');
  mkdirSync(join(dir, '.team'), { recursive: true });
  mkdirSync(join(dir, '.tasks'));
  mkdirSync(outside);
  writeFileSync(join(outside, 'target.txt'), 'outside, untouched\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, '.gitignore'), '.worktrees/\n.team/state/\n');
  writeFileSync(join(dir, 'README.md'), '# sandbox\n');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'init');
  const scriptPath = join(dir, '.team', 'script.json');
  writeFileSync(scriptPath, JSON.stringify(opts.script));
  writeFileSync(
    join(dir, '.team', 'config.json'),
    JSON.stringify({ model: `scripted:${scriptPath}`, leaseMs: 20_000, ...opts.config }),
  );
  return {
    root,
    dir,
    outside,
    scriptPath,
    git,
    writeTask: (id, task) => writeFileSync(join(dir, '.tasks', `${id}.json`), JSON.stringify(task)),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** path (relative to `root`) → size, mtime and kind of every file, folder and link below it (.git left out). */
export function snapshot(root: string): Map<string, string> {
  const shot = new Map<string, string>();
  for (const path of walk(root, { dirs: true })) {
    const s = lstatSync(path);
    const kind = s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : 'file';
    shot.set(relative(root, path), kind === 'dir' ? 'dir' : `${kind} ${s.size} ${s.mtimeMs}`);
  }
  return shot;
}

/** Paths added, removed or changed between two snapshots. */
export function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}
