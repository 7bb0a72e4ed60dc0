/**
 * The lead's teammates: one worker thread per name, never two. A worker that
 * crashes (throws, exits, is terminated) is restarted with exponential
 * backoff and a `teammate_crashed` event; its task goes back to the board.
 */
import type { Worker } from 'node:worker_threads';
import type { TeamConfig } from '../config/schema.js';
import type { TeamEvent } from '../observe/types.js';
import { FromWorkerSchema, type FromWorker, type TeammateState, type ToWorker, type WorkerData } from '../teammate/types.js';
import { spawnWorker, teammateEntryUrl } from './spawn-worker.js';

export interface PoolHandlers {
  /** A message from a worker (state, events, model calls, worktree requests). */
  onMessage: (name: string, msg: FromWorker, worker: Worker) => void;
  /** A worker died unexpectedly; called before it is restarted. */
  onCrash: (name: string, error: string) => Promise<void>;
  log: (e: TeamEvent) => void;
}

interface Member {
  name: string;
  worker: Worker | null;
  state: TeammateState;
  task: string | null;
  restarts: number;
  stopping: boolean;
  exited: Promise<void>;
  restartTimer: NodeJS.Timeout | null;
}

export class TeammatePool {
  private readonly members = new Map<string, Member>();

  constructor(
    private readonly makeData: (name: string, restarts: number) => WorkerData,
    private readonly handlers: PoolHandlers,
    private readonly backoff = { baseMs: 500, maxMs: 30_000 },
  ) {}

  start(team: TeamConfig): void {
    for (const t of team.teammates) this.spawn(t.name, 0);
  }

  names(): string[] {
    return [...this.members.keys()];
  }

  stateOf(name: string): { state: TeammateState; task: string | null } | undefined {
    const m = this.members.get(name);
    return m ? { state: m.state, task: m.task } : undefined;
  }

  /** The first idle teammate, for `any` targets (cron). */
  firstIdle(): string | null {
    for (const m of this.members.values()) if (m.state === 'idle' && m.worker) return m.name;
    return null;
  }

  send(name: string, msg: ToWorker): void {
    this.members.get(name)?.worker?.postMessage(msg);
  }

  wakeAll(reason: string, tasks: string[] = []): void {
    for (const name of this.members.keys()) this.send(name, { type: 'wake', reason, tasks });
  }

  /** Asks every worker to stop; resolves when all have exited (or `timeoutMs` passed, then terminates them). */
  async stopAll(reason: string, timeoutMs = 30_000): Promise<void> {
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
    const worker = spawnWorker(teammateEntryUrl(), this.makeData(name, restarts));
    let markExited!: () => void;
    const member: Member = {
      name,
      worker,
      state: 'starting',
      task: null,
      restarts,
      stopping: existing?.stopping ?? false,
      exited: new Promise<void>((r) => (markExited = r)),
      restartTimer: null,
    };
    this.members.set(name, member);
    let lastError = 'exited';
    worker.on('message', (raw: unknown) => this.route(member, raw, worker));
    worker.on('error', (err) => (lastError = err.stack ?? String(err)));
    worker.on('exit', (code) => {
      member.worker = null;
      markExited();
      if (member.stopping) {
        member.state = 'stopped';
        return;
      }
      member.state = 'dead';
      void this.crashed(member, code === 0 ? `exited unexpectedly` : `${lastError} (exit ${code})`);
    });
  }

  private route(member: Member, raw: unknown, worker: Worker): void {
    const parsed = FromWorkerSchema.safeParse(raw);
    if (!parsed.success) return;
    const msg = parsed.data;
    if (msg.type === 'state') {
      member.state = msg.state;
      member.task = msg.task;
    }
    if (msg.type === 'stopped') member.stopping = true;
    this.handlers.onMessage(member.name, msg, worker);
  }

  private async crashed(member: Member, error: string): Promise<void> {
    const delay = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** member.restarts);
    this.handlers.log({ type: 'teammate_crashed', agent: member.name, error: error.slice(0, 2000), restartInMs: delay, restarts: member.restarts + 1 });
    await this.handlers.onCrash(member.name, error);
    member.restartTimer = setTimeout(() => {
      member.restartTimer = null;
      if (member.stopping) return;
      this.spawn(member.name, member.restarts + 1);
      this.handlers.log({ type: 'teammate_restarted', agent: member.name, restarts: member.restarts + 1 });
    }, delay);
  }
}
