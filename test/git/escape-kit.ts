/**
 * What a hostile teammate can do to teamd's git from inside its worktree (or,
 * with bash, to the repository's config): each trap runs `touch <marker>`
 * when git executes it, so a test asserts that no marker exists afterwards.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worktrees } from '../../src/git/worktrees.js';
import { cleanEnv, type TempRepo } from './temp-repo.js';

/** A shell command that leaves `marker` behind, and fails (so a filter or monitor also misbehaves). */
export const touching = (marker: string): string => `touch '${marker}'; false`;

/** Config keys whose value git runs as a command, in `git config` form. */
export const EXECUTABLE_KEYS = [
  'core.fsmonitor',
  'core.pager',
  'core.editor',
  'core.sshCommand',
  'core.askPass',
  'diff.external',
  'credential.helper',
  'gpg.program',
  'sequence.editor',
] as const;

export async function makeTaskWorktree(repo: TempRepo, taskId: string): Promise<string> {
  const made = await new Worktrees({ repoRoot: repo.root }).create({ taskId, agent: 'mallory' });
  if (!made.ok) throw new Error(made.error);
  return made.value.path;
}

/** A git config file body setting `key` to a marker command (and signing on, so gpg.program is asked). */
export function trapConfig(key: string, marker: string): string {
  const [section, name] = [key.slice(0, key.lastIndexOf('.')), key.slice(key.lastIndexOf('.') + 1)];
  const sign = key === 'gpg.program' ? '[commit]\n\tgpgSign = true\n' : '';
  return `[${section}]\n\t${name} = ${touching(marker)}\n${sign}`;
}

/** Makes `<worktree>/<name>` a git dir of the teammate's own (with `config` appended) and points `.git` at it. */
export function redirectGitDir(
  worktree: string,
  name: string,
  config: string,
  pointer = `gitdir: ${name}`,
): void {
  execFileSync('git', ['init', '-q', '--bare', join(worktree, name)], { env: cleanEnv() });
  writeFileSync(join(worktree, name, 'config'), `[core]\n\tbare = false\n${config}`, { flag: 'a' });
  writeFileSync(join(worktree, '.git'), `${pointer}\n`);
}

/** A repository nested in the worktree (git adds it as a gitlink) whose own config sets a trap. */
export function nestedRepo(worktree: string, config: string): void {
  const dir = join(worktree, 'nested');
  mkdirSync(dir, { recursive: true });
  const env = cleanEnv();
  execFileSync('git', ['init', '-q', dir], { env });
  writeFileSync(join(dir, 'file.txt'), 'nested\n');
  execFileSync('git', ['-c', 'user.name=m', '-c', 'user.email=m@m', 'add', '.'], { cwd: dir, env });
  execFileSync('git', ['-c', 'user.name=m', '-c', 'user.email=m@m', 'commit', '-qm', 'n'], { cwd: dir, env });
  writeFileSync(join(dir, '.git', 'config'), config, { flag: 'a' });
  writeFileSync(join(dir, 'file.txt'), 'changed\n');
}

/** A hook at `<dir>/<name>` that leaves the marker. */
export function hookAt(dir: string, name: string, marker: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\ntouch '${marker}'\n`);
  chmodSync(join(dir, name), 0o755);
}

export const markerLeft = (marker: string): boolean => existsSync(marker);
