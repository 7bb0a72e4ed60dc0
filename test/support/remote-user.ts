// The "other machine" of the ssh tests: another local user with its own home. Created once with
// `useradd -m` (the tests run as root); its password field is `*` so that sshd without PAM does not
// take it for a locked account (`!`), which would refuse even a key.
import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';

export const REMOTE_USER = 'teamd-remote';

export interface RemoteUser {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 30_000 });

function lookup(name: string): RemoteUser | null {
  const r = run('getent', ['passwd', name]);
  if (r.status !== 0) return null;
  const [, , uid, gid, , home] = r.stdout.trim().split(':');
  return { name, uid: Number(uid), gid: Number(gid), home: home ?? `/home/${name}` };
}

/** The remote user, created when missing; a reason (for a skip line) when that cannot be done. */
export function ensureRemoteUser(name = REMOTE_USER): RemoteUser | string {
  if (lookup(name) === null) {
    const r = run('useradd', ['-m', '-s', '/bin/sh', '-p', '*', name]);
    if (r.status !== 0 && lookup(name) === null) return `useradd ${name} failed: ${r.stderr.trim()}`;
  }
  const unlock = run('usermod', ['-p', '*', name]);
  if (unlock.status !== 0) return `usermod -p '*' ${name} failed: ${unlock.stderr.trim()}`;
  return lookup(name) ?? `user ${name} not found after useradd`;
}

/**
 * The live processes of `user` now, as `pid command` lines (empty when none): the orphan check.
 * Zombies are left out: they run nothing, and in a container whose pid 1 does not reap they stay.
 */
export function processesOf(user: string): string[] {
  const r = run('ps', ['-u', user, '-o', 'pid=,stat=,args=']);
  return r.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, stat]) => pid !== undefined && pid !== '' && !stat?.startsWith('Z'))
    .map(([pid, , ...args]) => `${pid} ${args.join(' ')}`);
}

/** The live processes of `user` whose working folder is under `dir` (a team's folder on the "remote"). */
export function processesUnder(user: string, dir: string): string[] {
  return processesOf(user).filter((line) => {
    try {
      const cwd = readlinkSync(`/proc/${line.split(' ')[0]}/cwd`);
      return cwd === dir || cwd.startsWith(`${dir}/`);
    } catch {
      return false; // gone meanwhile
    }
  });
}
