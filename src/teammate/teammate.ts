/**
 * A teammate: idles until there is mail or a ready task, works on one thing at
 * a time, and goes back to idle. Lifecycle: starting → idle ⇄ working
 * (⇄ waiting for an approval) → stopping → stopped. The lead only ever says
 * "look now" (`wake`); what to do is always read from the files.
 */
import type { AgentEvent } from '../agent/types.js';
import type { HookAsyncOutput, HookSettings } from '../hooks/types.js';
import type { ModelClient } from '../model/types.js';
import type { TeamEvent } from '../observe/types.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { TaskStore } from '../store/tasks/index.js';
import type { Task } from '../store/types.js';
import { handleControlMessage } from './control.js';
import { answerHookWhileIdle, HookWakes } from './hook-wake.js';
import type { ActiveRun, TeammateHost } from './host.js';
import type { LeadWrites } from './hosts/store-client.js';
import { MailDesk } from './mail-desk.js';
import { answerMailWhileIdle } from './mail-session.js';
import { StatusFile } from './status-file.js';
import { workOnTask } from './task-work.js';
import type { TeammateState, WorkerData } from './types.js';
import { Waiters } from './waiters.js';

export interface WorktreeGrant {
  ok: boolean;
  path?: string;
  branch?: string;
  error?: string;
}

export interface TeammateDeps {
  data: WorkerData;
  tasks: TaskStore;
  mailbox: MailboxStore;
  model: ModelClient;
  /** Hooks from .claude/settings*.json and the team config, loaded once at start. */
  hooks: HookSettings;
  /** The settings' `allowedHttpHookUrls`: where `http` hooks may go besides loopback. */
  allowedHttpHookUrls?: string[];
  /** Asks the lead for the task's worktree (the lead serialises git work). */
  requestWorktree: (taskId: string) => Promise<WorktreeGrant>;
  log: (e: TeamEvent, at?: Date) => void;
  onState: (state: TeammateState, task: string | null) => void;
  /** Every event of this teammate's runtimes, when the lead asked for them (`forwardEvents`). */
  onAgentEvent?: (e: AgentEvent) => void;
  /** Fallback re-check while idle, in case a wake was missed (files stay the truth). */
  idleRecheckMs?: number;
  /** Out of the lead's process: the writes the lead makes for this teammate (hosts/store-client.ts). */
  viaLead?: LeadWrites;
}

export class Teammate implements TeammateHost {
  readonly name: string;
  readonly status: StatusFile;
  readonly waiters = new Waiters();
  readonly desk: MailDesk;
  readonly shutdownRequests = new Map<string, string>();
  private readonly hookWakes = new HookWakes();
  planApproved = false;
  planRejections = 0;
  private stopReason: string | null = null;
  private wakeUp: (() => void) | null = null;
  private wakePending = false;
  private grantedTaken = false;
  /** Whether the inbox may hold something: at start, after a mail wake, and at every idle re-check. */
  private mailPending = true;
  private current: ActiveRun | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  /** Whether the lead knows this teammate is idle (told once per change, not after every turn). */
  private idleReported = true;

  constructor(readonly deps: TeammateDeps) {
    this.name = deps.data.teammate.name;
    const init = { name: this.name, model: deps.data.model, restarts: deps.data.restarts, carried: deps.data.carriedStatus };
    this.status = new StatusFile(deps.data.repoRoot, init, deps.viaLead?.writeStatus);
    this.desk = new MailDesk(deps.mailbox, this.name, deps.log, (m) => handleControlMessage(this, m));
  }

  get stopping(): boolean {
    return this.stopReason !== null;
  }

  /** "Look now": a task may be ready, or (`mail`) mail may have arrived — only then is the inbox read. */
  wake(reason: 'task' | 'mail' = 'task'): void {
    if (reason === 'mail') this.mailPending = true;
    this.wakePending = true;
    this.wakeUp?.();
    if (this.current && reason === 'mail') void this.desk.pollWhileBusy();
  }

  /** A background hook's result for a session that has ended: taken at the next idle moment, like mail. */
  hookWake(output: HookAsyncOutput): void {
    if (this.stopping) return;
    this.hookWakes.add(output);
    this.wake('task');
  }

  /**
   * A task changed elsewhere: when the one being worked on was cancelled, the
   * run stops; `finishTask` then leaves the file as it is. (Only a cancel: a
   * task this teammate completed or failed itself must not cut short what
   * follows, e.g. keeping its memories.)
   */
  taskChanged(id: string, status: string): void {
    if (status === 'cancelled' && this.current && this.status.current.task === id) this.current.interrupt();
  }

  /** Graceful stop: the current run is interrupted and its task goes back to the board with a note. */
  stop(reason: string): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.status.current.note = reason;
    this.current?.interrupt();
    this.wakeUp?.();
  }

  async run(): Promise<void> {
    this.startHeartbeat();
    await this.setState('idle', null);
    while (!this.stopping) {
      if (await this.handleMail()) continue;
      if (await this.handleHookWakes()) continue;
      if (await this.takeNextTask()) continue;
      await this.idle();
    }
    await this.setState('stopping', null, this.stopReason ?? undefined);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    await this.setState('stopped', null, this.stopReason ?? undefined);
  }

  async setState(state: TeammateState, task: string | null, note?: string): Promise<void> {
    const before = this.status.state;
    const beforeTask = this.status.current.task;
    if (before === state && beforeTask === task && note === undefined) return; // nothing to tell, nothing to write
    if (!(await this.status.transition(state, task, note))) return;
    this.deps.log({ type: 'teammate_state', agent: this.name, state, task });
    this.deps.onState(state, task);
  }

  private async handleMail(): Promise<boolean> {
    if (!this.mailPending && !this.desk.holdsMail) return false;
    this.mailPending = false;
    const batch = await this.desk.takeForIdle();
    if (batch.length === 0) return false;
    await this.setState('working', null);
    await this.runToEnd(answerMailWhileIdle(this, batch));
    return true; // idle again only when nothing else is waiting (see `idle`), not between two jobs
  }

  private async handleHookWakes(): Promise<boolean> {
    if (this.hookWakes.size === 0) return false;
    await this.setState('working', null);
    await this.runToEnd(answerHookWhileIdle(this, this.hookWakes.take()));
    return true;
  }

  private async takeNextTask(): Promise<boolean> {
    const granted = this.takeGrantedTask();
    const claim = granted ? null : await this.deps.tasks.claimNext(this.name, this.deps.data.team.leaseMs);
    if (claim && (!claim.ok || !claim.value)) return false;
    const task = granted ?? claim!.value!;
    if (!granted) this.deps.log({ type: 'task_claimed', task: task.id, agent: this.name, attempt: task.attempts + 1 });
    await this.setState('working', task.id);
    this.idleReported = false;
    await this.runToEnd(workOnTask(this, task));
    return true;
  }

  /** Once: the task this (fresh) sandbox was started for, still ours (`WorkerData.grantedWorktree`). */
  private takeGrantedTask(): Task | null {
    const id = this.deps.data.grantedWorktree?.taskId;
    if (id === undefined || this.grantedTaken) return null;
    this.grantedTaken = true;
    const task = this.deps.tasks.get(id);
    return task?.owner === this.name && task.status === 'in_progress' ? task : null;
  }

  private async runToEnd(run: ActiveRun): Promise<void> {
    this.current = run;
    if (this.stopping) run.interrupt();
    try {
      await run.done;
    } finally {
      this.current = null;
    }
  }

  private async idle(): Promise<void> {
    if (this.wakePending) {
      this.wakePending = false;
      return;
    }
    await this.setState('idle', null);
    if (!this.idleReported) await this.reportIdle();
    // A stop or a wake that came while the idle state was being written found no
    // `wakeUp` to call: act on it now rather than after the idle re-check.
    if (this.stopping || this.wakePending) {
      this.wakePending = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.mailPending = true; // a wake may have been missed: the files stay the truth
        resolve();
      }, this.deps.idleRecheckMs ?? 5_000);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeUp = null;
    this.wakePending = false;
  }

  /** Tells the lead, once, that this teammate ran out of work (a routine report: recorded, not queued). */
  private async reportIdle(): Promise<void> {
    this.idleReported = true;
    // No message events: the `teammate_state` event just logged says the same.
    await this.deps.mailbox.record({ from: this.name, to: 'lead', type: 'idle_notification', content: `${this.name} is idle: no mail, no ready task.` });
  }

  private startHeartbeat(): void {
    const every = Math.min(10_000, Math.max(200, Math.floor(this.deps.data.team.leaseMs / 3)));
    this.heartbeatTimer = setInterval(() => void this.beat(), every);
    this.heartbeatTimer.unref();
  }

  private async beat(): Promise<void> {
    const task = this.status.current.task;
    const handedToMerge = task ? this.deps.tasks.get(task)?.metadata.merge !== undefined : false;
    if (task && !handedToMerge && this.status.state !== 'idle') await this.deps.tasks.renewLease(task, this.name, this.deps.data.team.leaseMs);
    await this.status.heartbeat();
  }
}
