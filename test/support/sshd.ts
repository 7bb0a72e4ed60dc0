// A real OpenSSH server (Debian's openssh-server) on 127.0.0.1 for the ssh host's tests: started as
// root on a free port with its own config and host key in a temp folder, accepting one fresh key for
// another local user (remote-user.ts). StrictModes stays on: the key lives in that user's own
// ~/.ssh under a name of this run, so parallel runs do not meet. Ready when a connection reads the
// server's banner; `stop()` ends the server and every session it started, and removes the key.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { ensureRemoteUser, type RemoteUser } from './remote-user.js';

const SSHD = '/usr/sbin/sshd';

export interface SshServer {
  port: number;
  user: RemoteUser;
  /** `user@127.0.0.1`. */
  target: string;
  /** The client's private key (root's, mode 600) and the known_hosts file naming this server's key. */
  identity: string;
  knownHosts: string;
  /** The ssh client options that reach this server (no user config, batch mode, strict host key). */
  sshOptions: string[];
  /**
   * Drops every open connection the way a crashed server or a cut cable does: SIGKILL to the sshd
   * processes of each session (the privileged monitor and the user's side that holds the socket),
   * never to the user's own processes, which must notice by themselves. The count of sessions dropped.
   */
  dropConnections(): number;
  stop(): Promise<void>;
  /** For a process that runs the server in the background of other work: its handles no longer keep the process alive. */
  unref(): void;
  /** Ends the server and its sessions at once and removes its files, synchronously (for an exit handler). */
  kill(): void;
}

export type SshdStart = ({ ok: true } & SshServer) | { ok: false; reason: string };

const which = (bin: string) => spawnSync('which', [bin], { encoding: 'utf8' }).status === 0;

function missing(): string | null {
  if (process.getuid?.() !== 0) return 'not root: the sshd tests start a server and log in as another user';
  if (!existsSync(SSHD)) return `${SSHD} missing (apt-get install openssh-server)`;
  if (!which('ssh') || !which('ssh-keygen')) return 'ssh or ssh-keygen missing (apt-get install openssh-client)';
  return null;
}

function keygen(file: string): void {
  const r = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'teamd-test', '-f', file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ssh-keygen -f ${file}: ${r.stderr}`);
}

/** The client's public key in the user's ~/.ssh under this run's name; the file name relative to home. */
function authorize(user: RemoteUser, publicKey: string, runId: string): string {
  const sshDir = join(user.home, '.ssh');
  mkdirSync(sshDir, { recursive: true, mode: 0o700 });
  chownSync(sshDir, user.uid, user.gid);
  chmodSync(sshDir, 0o700);
  const file = join(sshDir, `teamd-test-${runId}`);
  writeFileSync(file, publicKey, { mode: 0o600 });
  chownSync(file, user.uid, user.gid);
  return `.ssh/teamd-test-${runId}`;
}

function configText(dir: string, port: number, user: string, keysFile: string): string {
  return [
    'ListenAddress 127.0.0.1',
    `Port ${port}`,
    `HostKey ${join(dir, 'host_key')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${keysFile}`,
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'UsePAM no',
    'StrictModes yes',
    'PermitRootLogin no',
    `AllowUsers ${user}`,
    'PrintMotd no',
    'LogLevel INFO',
    '',
  ].join('\n');
}

/** Resolves once sshd says it listens, or with the reason it exited (a port taken meanwhile, a bad config). */
function listening(child: ChildProcess): Promise<string | null> {
  return new Promise((resolve) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Server listening on')) done(null);
    };
    const onExit = (code: number | null) => done(`sshd exited (${code}): ${log.trim().split('\n').slice(-3).join(' | ')}`);
    const done = (reason: string | null) => {
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      resolve(reason);
    };
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** The server's banner on a fresh connection: it accepts clients now. */
function banner(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(10_000, () => socket.destroy(new Error('no banner within 10 s')));
    socket.once('data', (chunk) => {
      socket.destroy();
      resolve(chunk.toString().split('\r\n')[0] ?? '');
    });
    socket.once('error', reject);
  });
}

function childrenOf(pid: number | undefined, comm?: string): number[] {
  if (pid === undefined) return [];
  const r = spawnSync('ps', ['--ppid', String(pid), '-o', 'pid=,comm='], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([n, c]) => Number(n) > 0 && (comm === undefined || c === comm))
    .map(([n]) => Number(n));
}

/** The sshd processes of every session of the listener `pid`: each monitor and the sshd children it forked. */
function sessionTree(pid: number | undefined): { sessions: number; pids: number[] } {
  const monitors = childrenOf(pid, 'sshd');
  return { sessions: monitors.length, pids: [...monitors, ...monitors.flatMap((m) => childrenOf(m, 'sshd'))] };
}

function killAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      /* gone already */
    }
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

async function launch(dir: string, user: RemoteUser, keysFile: string): Promise<{ child: ChildProcess; port: number }> {
  let last = '';
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const config = join(dir, 'sshd_config');
    writeFileSync(config, configText(dir, port, user.name, keysFile));
    const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    const failed = await listening(child);
    if (failed === null) {
      child.stderr?.resume(); // its log read on and let go: a full pipe would stall sshd at its next connection
      return { child, port };
    }
    last = failed;
  }
  throw new Error(last);
}

/** A running sshd for `ensureRemoteUser()`, or a reason to skip (not root, sshd missing). */
export async function startSshd(): Promise<SshdStart> {
  const reason = missing();
  if (reason) return { ok: false, reason };
  const user = ensureRemoteUser();
  if (typeof user === 'string') return { ok: false, reason: user };
  const unreachable = checkoutUnreachable(user.name);
  if (unreachable) return { ok: false, reason: unreachable };
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // sshd's privilege separation folder
  const dir = mkdtempSync(join(tmpdir(), 'teamd-sshd-'));
  keygen(join(dir, 'host_key'));
  keygen(join(dir, 'id_ed25519'));
  const runId = randomBytes(6).toString('hex');
  const keysFile = authorize(user, readFileSync(join(dir, 'id_ed25519.pub'), 'utf8'), runId);
  const { child, port } = await launch(dir, user, keysFile);
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, `[127.0.0.1]:${port} ${readFileSync(join(dir, 'host_key.pub'), 'utf8')}`);
  if (!(await banner(port)).startsWith('SSH-2.0-')) throw new Error(`sshd on port ${port} sent no SSH banner`);
  const identity = join(dir, 'id_ed25519');
  const stop = async () => {
    const sessions = childrenOf(child.pid);
    child.kill('SIGTERM');
    killAll(sessions, 'SIGTERM');
    await exited(child);
    rmSync(join(user.home, keysFile), { force: true });
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    ok: true,
    port,
    user,
    target: `${user.name}@127.0.0.1`,
    identity,
    knownHosts,
    sshOptions: clientOptions(port, identity, knownHosts),
    unref: () => {
      child.unref();
      (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    },
    kill: () => {
      killAll([...sessionTree(child.pid).pids, child.pid ?? 0].filter((p) => p > 0), 'SIGKILL');
      rmSync(join(user.home, keysFile), { force: true });
      rmSync(dir, { recursive: true, force: true });
    },
    dropConnections: () => {
      const { sessions, pids } = sessionTree(child.pid);
      killAll(pids, 'SIGKILL');
      return sessions;
    },
    stop,
  };
}

export function clientOptions(port: number, identity: string, knownHosts: string): string[] {
  return [
    '-F', '/dev/null',
    '-p', String(port),
    '-i', identity,
    '-o', 'IdentitiesOnly=yes',
    '-o', 'BatchMode=yes',
    '-o', `UserKnownHostsFile=${knownHosts}`,
    '-o', 'StrictHostKeyChecking=yes',
    '-o', 'ConnectTimeout=10',
  ];
}

/**
 * The remote user runs this checkout's teammate entry with this node: both must be readable by it
 * (a checkout under a 0700 home is not; .ci/run opens the folders above the checkout for traversal).
 */
function checkoutUnreachable(user: string): string | null {
  const checkout = fileURLToPath(new URL('../../', import.meta.url));
  const probe = `${shellWord(process.execPath)} -e 0 && test -r ${shellWord(join(checkout, 'package.json'))}`;
  const r = spawnSync('su', ['-s', '/bin/sh', user, '-c', probe], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0
    ? null
    : `the remote test user ${user} cannot run ${process.execPath} on ${checkout} (a folder above it is not readable by others: chmod o+x)`;
}

const shellWord = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
