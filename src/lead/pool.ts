/**
 * The lead's teammates: one running teammate per name, never two, on the host
 * its config names (a worker thread by default; see teammate/hosts). One that
 * crashes (throws, exits, is terminated) is restarted with exponential
 * backoff and a `teammate_crashed` event; its task goes back to the board.
 */
import type { TeamConfig } from '../config/schema.js';
import type { TeamEvent } from '../observe/types.js';
import {
  FromWorkerSchema,
  type FromWorker,
  type TeammateState,
  type ToWorker,
  type WorkerData,
} from '../teammate/types.js';
import { ipcShapeProblem } from '../teammate/protocol.js';
import { killProcessGroup } from '../tools/process-group.js';
import { ThreadHost } from '../teammate/hosts/thread.js';
import type { StartedTeammate, TeammateChannel, TeammateHost } from '../teammate/hosts/types.js';

export interface PoolHandlers {
  /** A message from a worker (state, events, model calls, worktree requests); `started` says how it runs. */
  onMessage: (name: string, msg: FromWorker, worker: TeammateChannel, started: StartedTeammate) => void;
  /** A worker died unexpectedly; called before it is restarted. */
  onCrash: (name: string, error: string) => Promise<void>;
  log: (e: TeamEvent) => void;
  /** A worker's process groups changed (its current list; empty once it died and they were ended). */
  onGroups?: (name: string, pgids: number[]) => void;
}

interface Member {
  name: string;
  worker: TeammateChannel | null;
  started: StartedTeammate | null;
  state: TeammateState;
  task: string | null;
  restarts: number;
  stopping: boolean;
  exited: Promise<void>;
  restartTimer: NodeJS.Timeout | null;
  /** When the worker last said anything; null until its first message (it may still be loading). */
  lastSeen: number | null;
  /** Process groups its commands started that may still run (killed when the worker dies). */
  groups: number[];
}

export class TeammatePool {
  private readonly members = new Map<string, Member>();
  private watchdog: NodeJS.Timeout | null = null;

  constructor(
    private readonly makeData: (name: string, restarts: number) => WorkerData,
    private readonly handlers: PoolHandlers,
    private readonly backoff = { baseMs: 500, maxMs: 30_000 },
    /** The host of each teammate (thread unless the config says otherwise). */
    private readonly hostOf: (name: string) => TeammateHost = () => THREAD_HOST,
  ) {}

  start(team: TeamConfig): void {
    // After `stopAll` (a paused team resuming) the stopped members start afresh.
    for (const [name, m] of this.members) if (!m.worker) this.members.delete(name);
    for (const t of team.teammates) this.spawn(t.name, 0);
    this.startWatchdog(Math.max(2_000, 2 * team.leaseMs));
  }

  /**
   * A worker stuck in a loop answers nothing and would hold its name and a
   * core forever. Workers are pinged; one silent for `silentMs` (its task's
   * lease is long gone by then) is terminated, and restarted like any crash.
   */
  private startWatchdog(silentMs: number): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = setInterval(
      () => {
        const now = Date.now();
        for (const m of this.members.values()) {
          if (!m.worker || m.stopping || m.lastSeen === null) continue;
          if (now - m.lastSeen > silentMs) {
            this.handlers.log({
              type: 'notice',
              agent: m.name,
              message: `no answer for ${Math.round((now - m.lastSeen) / 1000)} s: terminating the worker`,
            });
            m.lastSeen = null;
            void m.worker.terminate();
          } else m.worker.postMessage({ type: 'ping' } satisfies ToWorker);
        }
      },
      Math.max(250, Math.floor(silentMs / 4)),
    );
    this.watchdog.unref();
  }

  names(): string[] {
    return [...this.members.keys()];
  }

  stateOf(name: string): { state: TeammateState; task: string | null } | undefined {
    const m = this.members.get(name);
    return m ? { state: m.state, task: m.task } : undefined;
  }

  /** The lead's end of a running teammate (a `Worker` on the thread host), for measurements; null when it is not running. */
  channelOf(name: string): TeammateChannel | null {
    return this.members.get(name)?.worker ?? null;
  }

  /** The first idle teammate, for `any` targets (cron). */
  firstIdle(): string | null {
    for (const m of this.members.values()) if (m.state === 'idle' && m.worker) return m.name;
    return null;
  }

  send(name: string, msg: ToWorker): void {
    this.members.get(name)?.worker?.postMessage(msg);
  }

  /** Sends `msg` to every running worker. */
  broadcast(msg: ToWorker): void {
    for (const name of this.members.keys()) this.send(name, msg);
  }

  /** Asks every worker to stop; resolves when all have exited (or `timeoutMs` passed, then terminates them). */
  async stopAll(reason: string, timeoutMs = 30_000): Promise<void> {
    if (this.watchdog) clearInterval(this.watchdog);
    const exits: Promise<void>[] = [];
    for (const m of this.members.values()) {
      m.stopping = true;
      if (m.restartTimer) clearTimeout(m.restartTimer);
      if (!m.worker) continue;
      m.worker.postMessage({ type: 'stop', reason } satisfies ToWorker);
      exits.push(m.exited);
    }
    const all = Promise.all(exits).then(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
    if ((await Promise.race([all, timeout])) === 'timeout') {
      await Promise.all([...this.members.values()].flatMap((m) => (m.worker ? [m.worker.terminate()] : [])));
    }
    clearTimeout(timer);
  }

  /** Starts one more teammate (the library's `createTeammate`); the watchdog runs from now on if it did not. */
  add(name: string, team: TeamConfig): void {
    this.spawn(name, 0);
    if (!this.watchdog) this.startWatchdog(Math.max(2_000, 2 * team.leaseMs));
  }

  /** `retire`, then waits for the worker to exit; false when it was not running. */
  async stopOne(name: string, reason: string): Promise<boolean> {
    const m = this.members.get(name);
    if (!m?.worker || m.state === 'stopped' || m.state === 'stopping') {
      await m?.exited;
      return false;
    }
    this.retire(name, reason);
    await m.exited;
    return true;
  }

  /** Stops one teammate for good (budget reached): it is not restarted. */
  retire(name: string, reason: string): void {
    const m = this.members.get(name);
    if (!m) return;
    m.stopping = true;
    if (m.restartTimer) clearTimeout(m.restartTimer);
    m.worker?.postMessage({ type: 'stop', reason } satisfies ToWorker);
  }

  /** Kills one worker outright (tests, watchdogs); the pool restarts it like any crash. */
  async kill(name: string): Promise<void> {
    await this.members.get(name)?.worker?.terminate();
  }

  private spawn(name: string, restarts: number): void {
    const existing = this.members.get(name);
    if (existing?.worker) return; // never two workers with one name
    let started: StartedTeammate;
    try {
      started = this.hostOf(name).start(this.makeData(name, restarts));
    } catch (error) {
      this.handlers.log({ type: 'notice', agent: name, message: `could not start: ${(error as Error).message}` });
      return;
    }
    const worker = started.channel;
    let markExited!: () => void;
    const member: Member = {
      name,
      worker,
      started,
      state: 'starting',
      task: null,
      restarts,
      stopping: existing?.stopping ?? false,
      exited: new Promise<void>((r) => (markExited = r)),
      restartTimer: null,
      lastSeen: null,
      groups: [],
    };
    this.members.set(name, member);
    let lastError = 'exited';
    worker.on('message', (raw: unknown) => this.route(member, raw, worker));
    worker.on('error', (err) => (lastError = err.stack ?? String(err)));
    worker.on('exit', (code) => {
      member.worker = null;
      if (member.groups.length) {
        killLeftGroups(member);
        this.handlers.onGroups?.(member.name, []);
      }
      markExited();
      if (member.stopping) {
        member.state = 'stopped';
        return;
      }
      member.state = 'dead';
      void this.crashed(member, code === 0 ? `exited unexpectedly` : `${lastError} (exit ${code})`);
    });
  }

  private route(member: Member, raw: unknown, worker: TeammateChannel): void {
    if (ipcShapeProblem(raw) !== undefined) return;
    const parsed = FromWorkerSchema.safeParse(raw);
    if (!parsed.success) return;
    const msg = parsed.data;
    member.lastSeen = Date.now();
    if (msg.type === 'pong') return;
    if (msg.type === 'state') {
      member.state = msg.state;
      member.task = msg.task;
    }
    if (msg.type === 'stopped') member.stopping = true;
    if (msg.type === 'process_groups') {
      if (!member.started?.sharesProcessGroups) return;
      member.groups = msg.pgids;
      return this.handlers.onGroups?.(member.name, msg.pgids);
    }
    this.handlers.onMessage(member.name, msg, worker, member.started!);
  }

  private async crashed(member: Member, error: string): Promise<void> {
    const delay = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** member.restarts);
    this.handlers.log({
      type: 'teammate_crashed',
      agent: member.name,
      error: error.slice(0, 2000),
      restartInMs: delay,
      restarts: member.restarts + 1,
    });
    await this.handlers.onCrash(member.name, error);
    member.restartTimer = setTimeout(() => {
      member.restartTimer = null;
      if (member.stopping) return;
      this.spawn(member.name, member.restarts + 1);
      this.handlers.log({ type: 'teammate_restarted', agent: member.name, restarts: member.restarts + 1 });
    }, delay);
  }
}

const THREAD_HOST = new ThreadHost();

/** A dead worker's commands would run on, orphaned (a terminated thread cleans nothing up): end them. */
function killLeftGroups(member: Member): void {
  for (const pgid of member.groups) void killProcessGroup(pgid, 500);
  member.groups = [];
}
