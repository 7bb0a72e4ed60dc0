/**
 * The teammate's side of "the lead writes the team's files" (docs/HOSTS.md).
 * Out of the lead's process a teammate holds none of `.tasks`, `.mailboxes`
 * or `.team/state`: every change goes to the lead as a `store_call` and
 * comes back as the method's value. Reads stay local where they always were
 * (the task index the lead keeps sending), so a teammate's code does not
 * change: it gets a `TaskStore` and a `MailboxStore` whose writing methods
 * are calls to the lead.
 */
import { randomUUID } from 'node:crypto';
import type { CommitRequest } from '../../git/commit.js';
import type { MailboxStore } from '../../store/mailbox/index.js';
import type { RefreshResult, TaskMutation, TaskStore } from '../../store/tasks/index.js';
import type { CronJob, Outcome, Task } from '../../store/types.js';
import type { CronToolService } from '../../tools/cron/types.js';
import type { PendingRequest } from '../requests.js';
import type { AgentStatus, FromWorker } from '../types.js';
import { MAILBOX_CALLS, TASK_CALLS, type StoreName } from './store-methods.js';
import { leadTranscripts } from './transcript-client.js';
import type { TranscriptOpener } from '../../agent/transcript.js';
import type { MemoryWriter } from '../../agent/memory/types.js';

/** The writes besides tasks and mail that the lead makes for a teammate. */
export interface LeadWrites {
  writeStatus: (status: AgentStatus) => Promise<void>;
  saveRequest: (request: PendingRequest) => Promise<void>;
  /** Commits the task's worktree (the lead alone writes the repository's .git). */
  commit: (path: string, request: CommitRequest) => Promise<Outcome<{ commit: string | null }>>;
  /** Opens transcripts whose lines the lead writes (hosts/transcript-client.ts). */
  openTranscript: TranscriptOpener;
  /** The cron tools' jobs, kept by the lead's scheduler. */
  cron: CronToolService;
  /** memory_write: the lead writes the memory in its `.memory/` (the folder the teammate names is ignored). */
  writeMemory: MemoryWriter;
}

/** Calls in flight to the lead, by id. */
export class StoreCalls {
  private readonly waiting = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(private readonly post: (m: FromWorker) => void) {}

  call(store: StoreName, method: string, args: unknown[]): Promise<unknown> {
    const callId = randomUUID();
    return new Promise((resolve, reject) => {
      this.waiting.set(callId, { resolve, reject });
      this.post({ type: 'store_call', callId, store, method, args });
    });
  }

  /** The lead's answer to one call. A refusal is a programmer error here (the teammate called what it may not). */
  receive(callId: string, ok: boolean, value: unknown, error: string | undefined): void {
    const waiter = this.waiting.get(callId);
    this.waiting.delete(callId);
    if (!waiter) return;
    if (ok) waiter.resolve(value);
    else waiter.reject(new Error(`the lead refused the call: ${error ?? 'no reason given'}`));
  }

  /** `transcripts`: the teammate's transcripts folder as its process names it. */
  leadWrites(transcripts: string): LeadWrites {
    return {
      openTranscript: leadTranscripts(transcripts, (append) => this.call('files', 'transcript', [append])),
      writeMemory: async (_dir, { name, description, type, body }) =>
        (await this.call('files', 'memory', [{ name, description, type, body }])) as Awaited<ReturnType<MemoryWriter>>,
      cron: {
        create: async (input) => (await this.call('cron', 'create', [input])) as Outcome<CronJob>,
        list: async () => (await this.call('cron', 'list', [])) as Awaited<ReturnType<CronToolService['list']>>,
        remove: async (id) => (await this.call('cron', 'remove', [id])) as Outcome<CronJob>,
      },
      writeStatus: async (status) => void (await this.call('files', 'status', [status])),
      saveRequest: async (request) => void (await this.call('files', 'request', [request])),
      commit: async (path, request) => (await this.call('files', 'commit', [path, request])) as Outcome<{ commit: string | null }>,
    };
  }
}

/** `local`, its changes made by the lead; what they return goes into the local index too. */
export function remoteTasks(local: TaskStore, calls: StoreCalls): TaskStore {
  const forward = async (method: string, args: unknown[]): Promise<unknown> => {
    const value = await calls.call('tasks', method, args);
    adoptResult(local, method, value);
    return value;
  };
  const update = async (id: string, mutate: (t: Task) => TaskMutation | Promise<TaskMutation>): Promise<Outcome<Task>> => {
    const fresh = (await calls.call('tasks', 'get', [id])) as Task | null;
    if (!fresh) return { ok: false, error: `no task "${id}"` };
    const next = await mutate(structuredClone(fresh));
    const outcome: Outcome<Task> = 'ok' in next ? next : { ok: true, value: next };
    if (!outcome.ok) return outcome;
    return (await forward('patch', [id, changedFields(fresh, outcome.value)])) as Outcome<Task>;
  };
  return new Proxy(local, {
    get(target, key, receiver) {
      if (key === 'update' || key === 'updateLocked') return update;
      if (typeof key === 'string' && TASK_CALLS.has(key)) return (...args: unknown[]) => forward(key, args);
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** `local` with every inbox operation made by the lead (a teammate reads no inbox file itself). */
export function remoteMailbox(local: MailboxStore, calls: StoreCalls): MailboxStore {
  return new Proxy(local, {
    get(target, key, receiver) {
      if (typeof key === 'string' && MAILBOX_CALLS.has(key)) return (...args: unknown[]) => calls.call('mailbox', key, args);
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A change of a task's top-level fields: what the lead applies to its fresh copy under the task's lock. */
export interface TaskPatch {
  set: Partial<Task>;
  unset: string[];
}

/** The top-level fields of `next` that differ from `base`. */
export function changedFields(base: Task, next: Task): TaskPatch {
  const set: Record<string, unknown> = {};
  const unset: string[] = [];
  for (const key of new Set([...Object.keys(base), ...Object.keys(next)]) as Set<keyof Task>) {
    if (JSON.stringify(base[key]) === JSON.stringify(next[key])) continue;
    if (next[key] === undefined) unset.push(key);
    else set[key] = next[key];
  }
  return { set: set, unset };
}

/** `patch` applied to `task` (the lead's side of `update`). */
export function applyPatch(task: Task, patch: TaskPatch): Task {
  const next: Record<string, unknown> = { ...task, ...patch.set };
  for (const key of patch.unset) delete next[key];
  return next as unknown as Task;
}

function adoptResult(local: TaskStore, method: string, value: unknown): void {
  if (method === 'refresh') {
    const r = value as RefreshResult;
    if (r.kind === 'updated') local.adopt(r.task);
    else if (r.kind === 'removed') local.adoptRemoval(r.id);
    return;
  }
  const outcome = value as Outcome<Task | null> | undefined;
  if (outcome?.ok && outcome.value) local.adopt(outcome.value);
}
