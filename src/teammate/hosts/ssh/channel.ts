/**
 * The lead's end of one remote teammate: the process host's channel (JSON
 * lines on the stdin/stdout of a child, here `ssh`) with the steps that make
 * the remote a place to work in, on the messages that need them:
 *
 *   worktree_ready (lead → teammate)   the granted branch goes out as a bundle;
 *                                      the teammate gets the remote worktree's path
 *   store_call files.commit (← teammate) the remote worktree comes back into the
 *                                      lead's; the lead commits it there, as ever
 *   process_groups (← teammate)        remembered: they are the remote's, ended there
 *
 * Messages keep their order in each direction (one queue each): a carry in
 * flight holds the messages behind it. A carry that fails ends the teammate
 * (a crash: its task is reclaimed and tried again). When the teammate is gone (exit,
 * dropped connection, terminate) its remote processes are ended and its
 * remote worktrees dropped before `exit` is told, so a stopped lead leaves
 * nothing running over there.
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { FromWorker, ToWorker, WorkerData } from '../../types.js';
import { ChildChannel } from '../process.js';
import { SECRET_ENV, type TeammateChannel } from '../types.js';
import { remoteRoot } from './argv.js';
import { carryWorktreeBack, dropRemoteBranch, sendBase } from './carry.js';
import { runSsh } from './exec.js';
import { endRemoteTeammate, remoteTeammateCommand } from './remote-teammate.js';
import { rootPathScript } from './scripts.js';
import type { SshHostConfig } from './types.js';

/** How long the remote clean-up after a teammate may hold its `exit` (a partitioned host must not hold a stop). */
const CLEANUP_MS = 20_000;
/** The exit code told when the remote could not be reached to start the teammate. */
export const EXIT_UNREACHABLE = 255;
/** …and when it was terminated before its session started (as a killed child's). */
const EXIT_TERMINATED = 128;

type StoreCall = Extract<FromWorker, { type: 'store_call' }>;

/** The git steps of carrying code (carry.ts); a test may slow or fail one. */
export interface Carry {
  sendBase: typeof sendBase;
  carryWorktreeBack: typeof carryWorktreeBack;
  dropRemoteBranch: typeof dropRemoteBranch;
}
const CARRY: Carry = { sendBase, carryWorktreeBack, dropRemoteBranch };
interface Sent {
  leadPath: string;
  branch: string;
}

export class SshChannel extends EventEmitter implements TeammateChannel {
  private inner: ChildChannel | null = null;
  private out: Promise<void>;
  private in: Promise<void> = Promise.resolve();
  /** Remote worktree path → the lead's worktree and branch it came from. */
  private readonly sent = new Map<string, Sent>();
  private groups: number[] = [];
  private ended: Promise<void> | null = null;
  private terminated = false;
  private readonly opened: Promise<void>;
  private readonly name: string;

  constructor(
    private readonly config: SshHostConfig,
    private readonly teamId: string,
    data: WorkerData,
    private readonly carry: Carry = CARRY,
  ) {
    super();
    this.name = data.teammate.name;
    this.opened = this.open(data).catch((error: unknown) => this.failStart((error as Error).message));
    this.out = this.opened;
  }

  postMessage(message: ToWorker): void {
    // The watchdog's ping and its pong pass a carry in flight: a large bundle is not a silent teammate.
    if (message.type === 'ping' && this.inner) return this.inner.postMessage(message);
    this.out = this.out.then(() => this.outgoing(message)).catch((error: unknown) => this.broke(`ssh channel: ${String(error)}`));
  }

  /** Ends it now: a start still in progress spawns nothing, a carry in flight is not waited for. */
  async terminate(): Promise<void> {
    this.terminated = true;
    await this.opened;
    await this.inner?.terminate();
    await this.end();
  }

  /** The remote folder first (it is the teammate's `repoRoot` there), then `ssh … teamd teammate --stdio`. */
  private async open(data: WorkerData): Promise<void> {
    const root = await runSsh(this.config, 'prepare the team folder', rootPathScript(remoteRoot(this.config, this.teamId)), { timeoutMs: 60_000 });
    if (!root.ok) return this.failStart(root.error);
    if (this.terminated) return void this.end().then(() => this.emit('exit', EXIT_TERMINATED));
    const { command, args } = remoteTeammateCommand(this.config, this.teamId, this.name);
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: sshEnv(), detached: true });
    const inner = new ChildChannel(child, { ...data, repoRoot: root.value.trim(), writesViaLead: true, modelViaLead: true });
    this.inner = inner;
    inner.on('message', (raw: unknown) => {
      if ((raw as FromWorker | null)?.type === 'pong') return void this.emit('message', raw);
      this.in = this.in.then(() => this.incoming(raw)).catch((error: unknown) => this.broke(`ssh channel: ${String(error)}`));
    });
    inner.on('error', (error: Error) => this.emit('error', error));
    inner.on('exit', (code: number) => void this.end().then(() => this.emit('exit', code)));
  }

  /**
   * Code could not travel (the connection dropped, the remote's disk is full):
   * that is the channel failing, not the task. The teammate is ended, so the
   * lead reclaims its task and starts it again with backoff, from the lead's
   * branch; a failed task would need a person.
   */
  private async broke(error: string): Promise<void> {
    this.emit('error', new Error(error));
    await this.inner?.terminate();
  }

  private failStart(error: string): void {
    this.emit('error', new Error(error));
    void this.end().then(() => this.emit('exit', EXIT_UNREACHABLE));
  }

  private async outgoing(message: ToWorker): Promise<void> {
    if (message.type !== 'worktree_ready' || !message.ok || !message.path || !message.branch) return this.inner?.postMessage(message);
    await this.dropCarried(message.branch);
    const remote = await this.carry.sendBase(this.config, this.teamId, message.path, message.branch);
    if (!remote.ok) return this.broke(remote.error);
    this.sent.set(remote.value.path, { leadPath: message.path, branch: message.branch });
    this.inner?.postMessage({ ...message, path: remote.value.path });
  }

  private async incoming(raw: unknown): Promise<void> {
    const m = raw as FromWorker;
    if (m?.type === 'process_groups' && Array.isArray(m.pgids)) this.groups = m.pgids.filter((g) => Number.isInteger(g));
    if (m?.type === 'store_call' && m.store === 'files' && m.method === 'commit') return this.commitCall(m);
    this.emit('message', raw);
  }

  /** A commit of a remote worktree: carried back, then the same call for the lead's worktree. */
  private async commitCall(call: StoreCall): Promise<void> {
    const sent = this.sent.get(String(call.args[0]));
    if (!sent) return void this.emit('message', call); // not one of ours: the lead refuses it, naming the path
    const back = await this.carry.carryWorktreeBack(this.config, this.teamId, sent.leadPath, sent.branch);
    if (!back.ok) return this.broke(back.error);
    this.emit('message', { ...call, args: [sent.leadPath, ...call.args.slice(1)] });
  }

  /** Earlier worktrees of this teammate on the remote, other than `keep`'s: their work is back, or was given up. */
  private async dropCarried(keep?: string): Promise<void> {
    for (const [path, { branch }] of this.sent) {
      if (branch === keep) continue;
      await this.carry.dropRemoteBranch(this.config, this.teamId, branch);
      this.sent.delete(path);
    }
  }

  /** Once: the remote teammate, the process groups its commands started there, and its worktrees, gone. */
  private end(): Promise<void> {
    this.ended ??= withTimeout(
      (async () => {
        await endRemoteTeammate(this.config, this.teamId, this.name, this.groups);
        await this.dropCarried();
      })(),
      CLEANUP_MS,
    );
    return this.ended;
  }
}

/** The local ssh client's environment: the lead's without keys and tokens, but with the ssh agent's socket. */
function sshEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !SECRET_ENV.test(key)));
  if (process.env.SSH_AUTH_SOCK) env.SSH_AUTH_SOCK = process.env.SSH_AUTH_SOCK;
  return env;
}

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void work.catch(() => undefined).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
