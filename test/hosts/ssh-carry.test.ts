// The ssh host's git carry against a real sshd on 127.0.0.1 and another local user: the task branch
// goes out as a bundle into that user's own clone, the "teammate" commits there (as that user, over
// ssh), and only the new commits come back into the lead's worktree as a fast-forward.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bringBack, dropRemoteBranch, sendBase } from '../../src/teammate/hosts/ssh/carry.js';
import { runSsh } from '../../src/teammate/hosts/ssh/exec.js';
import { SshHostConfigSchema, type SshHostConfig } from '../../src/teammate/hosts/ssh/types.js';
import { startSshd, type SshdStart } from '../support/sshd.js';

let sshd: SshdStart;
let lead: string;
let config: SshHostConfig;
const teamId = `team-test-${process.pid}`;
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

beforeAll(async () => {
  sshd = await startSshd();
  if (!sshd.ok) return;
  config = SshHostConfigSchema.parse({ kind: 'ssh', target: sshd.target, port: sshd.port, identity: sshd.identity, knownHosts: sshd.knownHosts, remoteDir: '.teamd-test' });
  lead = mkdtempSync(join(tmpdir(), 'teamd-ssh-lead-'));
  git(lead, 'init', '-q', '-b', 'main');
  writeFileSync(join(lead, 'README.md'), 'hello\n');
  git(lead, 'add', '-A');
  git(lead, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'base');
});

afterAll(async () => {
  if (!sshd.ok) return;
  await runSsh(config, 'cleanup', 'rm -rf "$HOME/.teamd-test"');
  await sshd.stop();
  rmSync(lead, { recursive: true, force: true });
});

/** A task worktree of the lead, on `branch` at main, the way the lead makes one. */
function leadWorktree(branch: string): string {
  const path = join(lead, '.worktrees', branch.replaceAll('/', '_'));
  git(lead, 'worktree', 'add', '-q', '-b', branch, path, 'main');
  return path;
}

/** What a remote teammate does: write and commit in its worktree, as the remote user. */
async function remoteCommit(path: string, file: string): Promise<void> {
  const script = `cd '${path}' && echo remote > '${file}' && git add -A && git -c user.name=w -c user.email=w@teamd.local commit -q -m work`;
  const r = await runSsh(config, 'work', script);
  expect(r).toEqual({ ok: true, value: '' });
}

describe('ssh host: code carried by git', () => {
  it('the task runs in the remote user\'s clone and its branch comes back as a fast-forward', async (ctx) => {
    if (!sshd.ok) return ctx.skip(sshd.reason);
    const wt = leadWorktree('teamd/t-1');
    const sent = await sendBase(config, teamId, wt, 'teamd/t-1');
    if (!sent.ok) throw new Error(sent.error);
    expect(sent.value.path.startsWith(`${sshd.user.home}/.teamd-test/${teamId}/worktrees/`)).toBe(true);
    expect(readFileSync(join(sent.value.path, 'README.md'), 'utf8')).toBe('hello\n');
    await remoteCommit(sent.value.path, 'done.txt');
    expect(existsSync(join(sent.value.path, 'done.txt'))).toBe(true);
    expect(existsSync(join(wt, 'done.txt'))).toBe(false); // written on the remote, not in the lead's worktree
    const owner = spawnSync('stat', ['-c', '%U', join(sent.value.path, 'done.txt')], { encoding: 'utf8' }).stdout.trim();
    expect(owner).toBe(sshd.user.name);
    const back = await bringBack(config, teamId, wt, 'teamd/t-1');
    if (!back.ok) throw new Error(back.error);
    expect(back.value).toBe(git(lead, 'rev-parse', 'refs/heads/teamd/t-1'));
    expect(readFileSync(join(wt, 'done.txt'), 'utf8')).toBe('remote\n');
    expect(git(lead, 'log', '--format=%ae', '-1', 'teamd/t-1')).toBe('w@teamd.local');
    expect((await dropRemoteBranch(config, teamId, 'teamd/t-1')).ok).toBe(true);
    expect(existsSync(sent.value.path)).toBe(false);
  });

  it('a branch with no new commits comes back as null, and a second send of a branch starts it afresh', async (ctx) => {
    if (!sshd.ok) return ctx.skip(sshd.reason);
    const wt = leadWorktree('teamd/t-2');
    const first = await sendBase(config, teamId, wt, 'teamd/t-2');
    if (!first.ok) throw new Error(first.error);
    writeFileSync(join(first.value.path, 'leftover.txt'), 'crashed attempt\n');
    expect(await bringBack(config, teamId, wt, 'teamd/t-2')).toEqual({ ok: true, value: null });
    const again = await sendBase(config, teamId, wt, 'teamd/t-2'); // a retry after a crash: a clean worktree
    if (!again.ok) throw new Error(again.error);
    expect(again.value.path).toBe(first.value.path);
    expect(existsSync(join(again.value.path, 'leftover.txt'))).toBe(false);
  });

  it('later branches send only new history; a clone that lost it gets a whole bundle', async (ctx) => {
    if (!sshd.ok) return ctx.skip(sshd.reason);
    const same = await sendBase(config, teamId, leadWorktree('teamd/t-4'), 'teamd/t-4'); // main's tip is there already: no bundle
    if (!same.ok) throw new Error(same.error);
    expect(readFileSync(join(same.value.path, 'README.md'), 'utf8')).toBe('hello\n');
    writeFileSync(join(lead, 'NEW.md'), 'new\n');
    git(lead, 'add', '-A');
    git(lead, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'more');
    const thin = await sendBase(config, teamId, leadWorktree('teamd/t-5'), 'teamd/t-5'); // one commit travels
    if (!thin.ok) throw new Error(thin.error);
    expect(readFileSync(join(thin.value.path, 'NEW.md'), 'utf8')).toBe('new\n');
    expect((await runSsh(config, 'wipe', 'rm -rf "$HOME/.teamd-test"')).ok).toBe(true);
    const whole = await sendBase(config, teamId, leadWorktree('teamd/t-6'), 'teamd/t-6');
    if (!whole.ok) throw new Error(whole.error);
    expect(readFileSync(join(whole.value.path, 'NEW.md'), 'utf8')).toBe('new\n');
  });

  it('a host that refuses the login is an error naming the host and the step', async (ctx) => {
    if (!sshd.ok) return ctx.skip(sshd.reason);
    const wrong = { ...config, identity: join(tmpdir(), 'no-such-key'), connectTimeoutS: 5 };
    const wt = leadWorktree('teamd/t-3');
    const sent = await sendBase(wrong, teamId, wt, 'teamd/t-3');
    expect(sent.ok).toBe(false);
    if (!sent.ok) expect(sent.error).toMatch(new RegExp(`^ssh ${sshd.target} \\(receive the task branch\\): exit 255`));
  });
});
