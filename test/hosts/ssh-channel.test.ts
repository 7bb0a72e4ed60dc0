// The ssh channel's own rules, over a real sshd with a stand-in teammate (a shell loop that answers
// the watchdog's ping with a pong): a carry in flight holds the messages behind it, but not the
// watchdog's ping and pong, so a large bundle is never taken for a silent teammate.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { shellQuote } from '../../src/teammate/hosts/ssh/argv.js';
import { runSsh } from '../../src/teammate/hosts/ssh/exec.js';
import { SshChannel, type Carry } from '../../src/teammate/hosts/ssh/channel.js';
import { SshHostConfigSchema, type SshHostConfig } from '../../src/teammate/hosts/ssh/types.js';
import type { WorkerData } from '../../src/teammate/types.js';
import { processesOf } from '../support/remote-user.js';
import { startSshd, type SshdStart } from '../support/sshd.js';

let sshd: SshdStart;
let config: SshHostConfig;
const PONGER = `while IFS= read -r line; do case "$line" in *'"ping"'*) echo '{"type":"pong"}' ;; esac; done`;

beforeAll(async () => {
  sshd = await startSshd();
  if (!sshd.ok) return;
  const host = { kind: 'ssh', target: sshd.target, port: sshd.port, identity: sshd.identity, knownHosts: sshd.knownHosts, remoteDir: `.teamd-chan-${process.pid}` };
  config = SshHostConfigSchema.parse({ ...host, teamdBin: `sh -c ${shellQuote(PONGER)} stand-in` });
});
afterAll(async () => {
  if (!sshd.ok) return;
  await runSsh(config, 'cleanup', `rm -rf "$HOME"/${shellQuote(config.remoteDir)}`);
  await sshd.stop();
});

const pong = (channel: SshChannel) => new Promise<void>((resolve) => channel.on('message', (m: unknown) => (m as { type?: string }).type === 'pong' && resolve()));

const within = (p: Promise<void>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms).unref())]);

it('the watchdog\'s ping is answered while a bundle is on its way', async (ctx) => {
  if (!sshd.ok) return ctx.skip(sshd.reason);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const sent: string[] = [];
  const slow: Carry = {
    sendBase: async (...args) => (sent.push(args[3]), await gate, { ok: false, error: 'the test' }),
    carryWorktreeBack: async () => ({ ok: true, value: null }),
    dropRemoteBranch: async () => ({ ok: true, value: null }),
  };
  const data = { teammate: { name: 'ann' }, repoRoot: '/lead', writesViaLead: true } as unknown as WorkerData;
  const channel = new SshChannel(config, 'team-chan', data, slow);
  const errors: string[] = [];
  channel.on('error', (e: Error) => errors.push(e.message));
  try {
    const first = pong(channel);
    channel.postMessage({ type: 'ping' });
    await first; // the stand-in runs
    channel.postMessage({ type: 'worktree_ready', requestId: 'r1', ok: true, path: '/lead/.worktrees/t1', branch: 'teamd/t1' });
    const second = pong(channel);
    channel.postMessage({ type: 'ping' });
    await within(second, 10_000, 'a pong while the bundle is held'); // the gate is still shut
    expect(sent).toEqual(['teamd/t1']);
  } finally {
    release();
    await channel.terminate();
  }
  expect(errors).toEqual(['the test']); // the carry failed at last: told as the channel's error (a crash)
});

it('terminated before its session started: nothing is started, and its exit is told', async (ctx) => {
  if (!sshd.ok) return ctx.skip(sshd.reason);
  const data = { teammate: { name: 'bob' }, repoRoot: '/lead', writesViaLead: true } as unknown as WorkerData;
  const channel = new SshChannel(config, 'team-chan', data);
  const exited = new Promise<number>((resolve) => channel.on('exit', resolve));
  await channel.terminate();
  expect(await Promise.race([exited, new Promise((r) => setTimeout(() => r('no exit'), 5_000).unref())])).toBe(128);
  expect(processesOf(sshd.user.name).filter((p) => p.includes('stand-in'))).toEqual([]);
});
