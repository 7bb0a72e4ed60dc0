/**
 * The lead's side of `store_call`: the writes it makes for a teammate out of
 * its process (hosts/store-client.ts). Only the methods of store-methods.ts
 * run, only in the caller's own name; a refused or failing call is answered
 * with its reason, and the lead carries on.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { writeMemory } from '../agent/memory/store.js';
import { commitWorktree, teammateEmail, type CommitRequest } from '../git/commit.js';
import { writeFileAtomic } from '../store/atomic.js';
import type { NewCronJob } from '../store/cron/index.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { CronToolService } from '../tools/cron/types.js';
import type { TaskStore } from '../store/tasks/index.js';
import { applyPatch, type TaskPatch } from '../teammate/hosts/store-client.js';
import { callRefusal } from '../teammate/hosts/store-methods.js';
import { appendTranscript } from './transcript-appends.js';
import { RequestSchema, saveRequest } from '../teammate/requests.js';
import { agentsStateDir } from '../teammate/status-file.js';
import { AgentStatusSchema, type FromWorker, type ToWorker } from '../teammate/types.js';

export interface StoreCallTargets {
  repoRoot: string;
  tasks: TaskStore;
  mailbox: MailboxStore;
  /** Whether `path` is a worktree the lead granted to `name` (the only ones it commits for it). */
  granted: (name: string, path: string) => boolean;
  /** The cron tools' service of the lead (its scheduler holds the jobs). */
  cron?: CronToolService;
}

type StoreCall = Extract<FromWorker, { type: 'store_call' }>;

/** A teammate's memory_write (the store checks the name and front matter). */
const MemoryInputSchema = z.strictObject({ name: z.string(), description: z.string(), type: z.string(), body: z.string().max(1_000_000) });
type Method = (...args: unknown[]) => unknown;

/** Runs one call of `name` and gives the answer to send back. */
export async function answerStoreCall(name: string, call: StoreCall, t: StoreCallTargets): Promise<ToWorker> {
  const answer = (ok: boolean, value?: unknown, error?: string): ToWorker => ({ type: 'store_result', callId: call.callId, ok, value, error });
  const refused = callRefusal(name, call.store, call.method, call.args);
  if (refused !== undefined) return answer(false, undefined, refused);
  try {
    return answer(true, await run(name, call, t));
  } catch (error) {
    return answer(false, undefined, (error as Error).message);
  }
}

async function run(name: string, { store, method, args }: StoreCall, t: StoreCallTargets): Promise<unknown> {
  if (store === 'files') return fileCall(name, method, args, t);
  if (store === 'cron') return cronCall(method, args, t);
  if (store === 'mailbox') return (t.mailbox[method as keyof MailboxStore] as Method).apply(t.mailbox, args);
  if (method === 'get') return t.tasks.get(String(args[0])) ?? null;
  if (method === 'patch') return t.tasks.update(String(args[0]), (task) => applyPatch(task, args[1] as TaskPatch));
  return (t.tasks[method as keyof TaskStore] as Method).apply(t.tasks, args);
}

async function fileCall(name: string, method: string, args: unknown[], t: StoreCallTargets): Promise<unknown> {
  if (method === 'transcript') return appendTranscript(t.repoRoot, name, args[0]);
  if (method === 'memory') return memoryCall(t.repoRoot, args[0]);
  if (method === 'status') {
    const status = AgentStatusSchema.parse(args[0]);
    if (status.name !== name) throw new Error(`a status for "${status.name}" sent by "${name}"`);
    return writeFileAtomic(join(agentsStateDir(t.repoRoot), `${name}.json`), JSON.stringify(status, null, 2), { durable: false });
  }
  if (method === 'request') {
    const request = RequestSchema.parse(args[0]);
    if (request.agent !== name) throw new Error(`a request of "${request.agent}" sent by "${name}"`);
    return saveRequest(t.repoRoot, request);
  }
  const path = String(args[0]);
  if (!t.granted(name, path)) throw new Error(`${path} is not a worktree the lead gave ${name}`);
  const request = args[1] as CommitRequest;
  return commitWorktree(path, { message: String(request.message), authorName: name, authorEmail: teammateEmail(name) });
}

/** A cron tool's call: the job is checked by the store (NewCronJobSchema) as any other. */
async function cronCall(method: string, args: unknown[], t: StoreCallTargets): Promise<unknown> {
  if (t.cron === undefined) throw new Error('this lead keeps no cron jobs');
  if (method === 'create') return t.cron.create(args[0] as NewCronJob);
  if (method === 'remove') return t.cron.remove(String(args[0]));
  return t.cron.list();
}

/** A teammate's memory_write, in the lead's `.memory/`; a bad input is an Outcome naming the field, as the store's own checks. */
async function memoryCall(repoRoot: string, raw: unknown): Promise<unknown> {
  const input = MemoryInputSchema.safeParse(raw);
  if (!input.success) return { ok: false, error: `memory: ${input.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}` };
  return writeMemory(join(repoRoot, '.memory'), input.data);
}
