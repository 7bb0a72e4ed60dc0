/**
 * Which live git processes may be working in a folder, read from /proc (Linux).
 * A git process holding a worktree's locks runs with its cwd in the worktree,
 * names it on its command line (`git worktree add <path>`), or was given it in
 * GIT_DIR / GIT_WORK_TREE (the children `git worktree` starts).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';

/** False where there is no /proc to ask (then only a lock's age can tell). */
export const canSeeProcesses = (): boolean => existsSync('/proc/self/cwd');

/** Pids of live git processes (other than this one) whose cwd, arguments or GIT_DIR lie in one of `dirs`. */
export async function gitProcessesIn(dirs: string[]): Promise<number[]> {
  const pids = (await readdir('/proc').catch(() => [])).filter((n) => /^\d+$/.test(n)).map(Number);
  const found: number[] = [];
  for (const pid of pids) {
    if (pid === process.pid || !(await isGit(pid))) continue;
    if ((await placesOf(pid)).some((p) => dirs.some((d) => isInside(d, p)))) found.push(pid);
  }
  return found;
}

async function isGit(pid: number): Promise<boolean> {
  const comm = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return comm.startsWith('git') && !/^\d+ \(.*\) [ZX]/.test(stat);
}

/** Every path a process may be working on: its cwd, its arguments, its GIT_DIR and GIT_WORK_TREE. */
async function placesOf(pid: number): Promise<string[]> {
  const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
  const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
  const env = (await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '')).split('\0');
  const fromEnv = env
    .filter((e) => /^GIT_(DIR|WORK_TREE|INDEX_FILE)=/.test(e))
    .map((e) => e.slice(e.indexOf('=') + 1));
  const fromArgs = args.map((a) => a.replace(/^--(git-dir|work-tree)=/, '')).filter((a) => a.startsWith('/'));
  return [...(cwd ? [cwd] : []), ...fromArgs, ...fromEnv];
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
