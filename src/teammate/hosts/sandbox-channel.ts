/**
 * A sandboxed teammate's channel: one bwrap per granted worktree
 * (docs/HOSTS.md, "One worktree writable").
 *
 * bwrap's mounts are fixed when it starts, and a task's worktree is made
 * after its teammate claims it. So a sandbox starts with no worktree
 * writable; when the lead grants one (`worktree_ready`), this channel does
 * not pass the grant on: it starts a fresh sandbox with that worktree alone
 * bound writable, told the task and its worktree (`WorkerData.grantedWorktree`),
 * and ends the old one, which was only waiting for the grant. The lead sees
 * one channel throughout: the old sandbox's exit is not a crash.
 */
import { EventEmitter } from 'node:events';
import type { Task } from '../../store/types.js';
import { TaskChangesSchema, WorkerDataSchema, type ToWorker, type WorkerData } from '../types.js';
import type { TeammateChannel } from './types.js';

type Grant = NonNullable<WorkerData['grantedWorktree']>;
const CarriedSchema = WorkerDataSchema.shape.carriedStatus.unwrap();

export class SandboxChannel extends EventEmitter implements TeammateChannel {
  private child: TeammateChannel;
  /** The lead's task index as sent so far: a fresh sandbox starts from it. */
  private readonly index: Map<string, Task>;
  /** requestId → taskId of the worktree requests seen. */
  private readonly requests = new Map<string, string>();
  /** The counters of the last status the teammate had the lead write: a fresh sandbox goes on from them. */
  private carried: WorkerData['carriedStatus'];

  constructor(
    private readonly launch: (data: WorkerData) => TeammateChannel,
    private readonly data: WorkerData,
  ) {
    super();
    this.index = new Map(data.tasks.map((t) => [t.id, t]));
    this.child = this.attach(launch(data));
  }

  postMessage(message: ToWorker): void {
    if (message.type === 'tasks') this.noteTasks(message.json);
    const taskId = message.type === 'worktree_ready' ? this.requests.get(message.requestId) : undefined;
    if (message.type === 'worktree_ready') this.requests.delete(message.requestId);
    if (message.type === 'worktree_ready' && message.ok && message.path && taskId !== undefined)
      return this.regrant({ taskId, path: message.path, branch: message.branch });
    this.child.postMessage(message);
  }

  terminate(): Promise<unknown> {
    return this.child.terminate();
  }

  /** A fresh sandbox for the granted worktree; the old one ends unseen. */
  private regrant(grant: Grant): void {
    const old = this.child;
    this.child = this.attach(this.launch({ ...this.data, tasks: [...this.index.values()], grantedWorktree: grant, carriedStatus: this.carried }));
    void old.terminate();
  }

  /** Only the current sandbox speaks for the teammate. */
  private attach(child: TeammateChannel): TeammateChannel {
    child.on('message', (m: unknown) => {
      if (child !== this.child) return;
      const r = m as { type?: unknown; requestId?: unknown; taskId?: unknown };
      if (r.type === 'worktree_request' && typeof r.requestId === 'string' && typeof r.taskId === 'string') this.requests.set(r.requestId, r.taskId);
      this.noteStatus(m);
      this.emit('message', m);
    });
    child.on('error', (e: Error) => child === this.child && this.emit('error', e));
    child.on('exit', (code: number) => child === this.child && this.emit('exit', code));
    return child;
  }

  private noteStatus(m: unknown): void {
    const call = m as { type?: unknown; store?: unknown; method?: unknown; args?: unknown };
    if (call.type !== 'store_call' || call.store !== 'files' || call.method !== 'status' || !Array.isArray(call.args)) return;
    const status = CarriedSchema.safeParse(call.args[0]);
    if (status.success) this.carried = status.data;
  }

  private noteTasks(json: string): void {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return; // the teammate's own parse says so; a fresh sandbox starts from what was good
    }
    const parsed = TaskChangesSchema.safeParse(value);
    if (!parsed.success) return;
    for (const t of parsed.data.updated) this.index.set(t.id, t);
    for (const id of parsed.data.removed) this.index.delete(id);
  }
}
