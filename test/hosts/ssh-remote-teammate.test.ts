// The remote teammate's process over a real sshd: started with the ssh host's command line, ended
// at stop with everything its commands started, and replaced (not doubled) when started again.
// The stand-in teammate is a shell that says "ready" and then waits: on stdin (`cat`, which ends
// with the channel) or not at all (`sleep`, which only an explicit end stops).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSsh } from '../../src/teammate/hosts/ssh/exec.js';
import { endRemoteTeammate, remoteTeammateCommand } from '../../src/teammate/hosts/ssh/remote-teammate.js';
import { SshHostConfigSchema, type SshHostConfig } from '../../src/teammate/hosts/ssh/types.js';
import { processesOf } from '../support/remote-user.js';
import { startSshd, type SshdStart } from '../support/sshd.js';
import { waitFor } from '../store/temp-repo.js';

let sshd: SshdStart;
const teamId = `team-life-${process.pid}`;
const marker = `teamd-life-${process.pid}`;
/** A nap no other run uses: this run's stand-ins are found by it. */
const nap = `sleep ${3000 + (process.pid % 997)}`;
const children: ChildProcess[] = [];

const configWith = (teamdBin: string): SshHostConfig => {
  if (!sshd.ok) throw new Error('no sshd');
  return SshHostConfigSchema.parse({ kind: 'ssh', target: sshd.target, port: sshd.port, identity: sshd.identity, knownHosts: sshd.knownHosts, remoteDir: '.teamd-life', teamdBin });
};
/** A stand-in for `teamd`: `<bin> teammate --stdio` prints ready, then runs `body` (with the marker in its argv). */
const standIn = (body: string) => `sh -c 'echo ready; ${body}' ${marker}`;
const remoteOfRun = () => (sshd.ok ? processesOf(sshd.user.name).filter((p) => p.includes(marker) || p.includes(nap)) : []);

function start(config: SshHostConfig, name: string): Promise<ChildProcess> {
  const { command, args } = remoteTeammateCommand(config, teamId, name);
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (c: Buffer) => (c.toString().startsWith('ready') ? resolve(child) : reject(new Error(c.toString()))));
    child.once('exit', (code) => reject(new Error(`ssh exited ${code}`)));
  });
}

const exited = (child: ChildProcess) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r)));

beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  if (!sshd.ok) return;
  await runSsh(configWith('true'), 'cleanup', 'rm -rf "$HOME/.teamd-life"');
  await sshd.stop();
});

describe('ssh host: the remote teammate process', () => {
  it('ends with the channel: the client killed, the remote teammate reading stdin is gone', async (ctx) => {
    if (!sshd.ok) return ctx.skip(sshd.reason);
    const child = await start(configWith(standIn('exec cat')), 'w1');
    expect(remoteOfRun().length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await waitFor(() => remoteOfRun().length === 0, 'the remote teammate to end with its channel');
  });

  it('a dropped connection (sshd session killed) ends it too', async (ctx) => {
    if (!sshd.ok) return ctx.skip(sshd.reason);
    const child = await start(configWith(standIn('exec cat')), 'w2');
    expect(sshd.dropConnections()).toBe(1);
    await exited(child);
    await waitFor(() => remoteOfRun().length === 0, 'the remote teammate to end after the drop');
  });

  it('the explicit end stops a teammate that ignores its stdin, and the process groups its commands started', async (ctx) => {
    if (!sshd.ok) return ctx.skip(sshd.reason);
    const config = configWith(standIn(`${nap} & exec ${nap}`));
    const child = await start(config, 'w3');
    const detached = await runSsh(config, 'a detached command', `setsid ${nap} < /dev/null > /dev/null 2>&1 & echo $!`);
    if (!detached.ok) throw new Error(detached.error);
    const pgid = Number(detached.value.trim());
    child.kill('SIGKILL');
    expect(remoteOfRun().length).toBe(4); // no stdin to read: the channel closing did not end it
    expect(await endRemoteTeammate(config, teamId, 'w3', [pgid])).toEqual({ ok: true, value: null });
    expect(remoteOfRun()).toEqual([]);
  });

  it('a restart ends the teammate of the same name an earlier lead left behind', async (ctx) => {
    if (!sshd.ok) return ctx.skip(sshd.reason);
    const config = configWith(standIn(`exec ${nap}`));
    const first = await start(config, 'w4');
    first.kill('SIGKILL'); // the old lead is gone; its remote teammate is not
    const left = remoteOfRun();
    expect(left.length).toBeGreaterThan(0);
    const second = await start(config, 'w4');
    const now = remoteOfRun();
    expect(now.length).toBe(left.length);
    expect(now.filter((p) => left.includes(p))).toEqual([]);
    await endRemoteTeammate(config, teamId, 'w4');
    await exited(second);
    expect(remoteOfRun()).toEqual([]);
  });
});
