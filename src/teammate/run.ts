/**
 * A teammate's life on its side of the channel, for every host: it builds the
 * teammate from its `WorkerData`, wires the lead's messages to it, and runs it
 * until it stops. `port` is a worker thread's `parentPort` or the stdio shim
 * of an out-of-process host (hosts/stdio-port.ts).
 */
import { randomUUID } from 'node:crypto';
import { rosterOf } from '../config/load.js';
import { teammateHooks } from './hooks.js';
import { createModelClient, modelInfo, SCRIPTED_PREFIX, warnUnknownModel } from '../model/index.js';
import type { ModelClient, ModelStreamEvent } from '../model/types.js';
import { EventLog } from '../observe/event-log.js';
import { MailboxStore } from '../store/mailbox/index.js';
import { formatProblem } from '../store/problems.js';
import { TaskStore } from '../store/tasks/index.js';
import type { Task } from '../store/types.js';
import { onLiveGroupsChange } from '../tools/live-groups.js';
import type { LoggedEvent, TeamEvent } from '../observe/types.js';
import { remoteMailbox, remoteTasks, StoreCalls } from './hosts/store-client.js';
import type { TeammatePort } from './hosts/types.js';
import { IpcModelClient } from './ipc-model.js';
import { ipcShapeProblem } from './protocol.js';
import { transcriptsDir, warmToolDefinitions } from './runtime-factory.js';
import { Teammate, type WorktreeGrant } from './teammate.js';
import { TaskChangesSchema, ToWorkerSchema, WorkerDataSchema, type FromWorker, type TaskChanges, type WorkerData } from './types.js';

async function modelFor(data: WorkerData, port: TeammatePort): Promise<ModelClient> {
  if (data.modelViaLead) return new IpcModelClient(data.model, port);
  return createModelClient(data.model, { fallbackModel: data.team.fallbackModel, prices: data.team.prices, cwd: data.repoRoot });
}

/** Runs the teammate of `workerData` until it stops; the port is closed at the end. */
export async function runTeammate(port: TeammatePort, workerData: unknown): Promise<void> {
  // Typed here and validated where it lands (the lead parses every message): not parsed twice.
  const post = (m: FromWorker): void => port.postMessage(m);
  const data = WorkerDataSchema.parse(workerData);
  const roster = rosterOf(data.team);
  const { tasks, mailbox, events, calls } = storesFor(data, roster, post);
  const model = await modelFor(data, port);
  if (!data.model.startsWith(SCRIPTED_PREFIX))
    warnUnknownModel(modelInfo(data.model, data.team.prices), (message) => events.append({ type: 'notice', agent: data.teammate.name, message }));
  const hooks = await teammateHooks(data);
  mailbox.onProblem = (p) => events.append({ type: 'notice', agent: data.teammate.name, message: `mailbox: ${formatProblem(p)}` });
  for (const problem of hooks.problems) events.append({ type: 'notice', agent: data.teammate.name, message: `hooks: ${problem}` });
  onLiveGroupsChange((pgids) => post({ type: 'process_groups', pgids }));
  const worktrees = new Map<string, (g: WorktreeGrant) => void>();
  const teammate = new Teammate({
    data,
    tasks,
    mailbox,
    model,
    hooks: hooks.settings,
    allowedHttpHookUrls: hooks.allowedHttpHookUrls,
    viaLead: calls?.leadWrites(transcriptsDir(data.repoRoot, data.teammate.name)),
    idleRecheckMs: data.idleRecheckMs,
    onAgentEvent: data.forwardEvents ? (e) => post({ type: 'agent_event', event: e as unknown as Record<string, unknown> }) : undefined,
    log: (e, at) => events.append(e, at),
    onState: (state, task) => post({ type: 'state', state, task }),
    requestWorktree: (taskId) =>
      new Promise((resolve) => {
        const granted = data.grantedWorktree;
        if (granted?.taskId === taskId) return resolve({ ok: true, path: granted.path, branch: granted.branch });
        const requestId = randomUUID();
        worktrees.set(requestId, resolve);
        post({ type: 'worktree_request', requestId, taskId });
      }),
  });
  port.on('message', (raw: unknown) => {
    if (ipcShapeProblem(raw) !== undefined) return;
    const msg = ToWorkerSchema.safeParse(raw);
    if (!msg.success) return;
    const m = msg.data;
    if (m.type === 'wake') teammate.wake(m.reason === 'mail' ? 'mail' : 'task');
    else if (m.type === 'tasks') {
      const changes = parseChanges(m.json);
      if (changes && adoptChanges(tasks, changes.updated, changes.removed, teammate.name)) teammate.wake('task');
      for (const t of changes?.updated ?? []) teammate.taskChanged(t.id, tasks.get(t.id)?.status ?? t.status);
    } else if (m.type === 'stop') teammate.stop(m.reason);
    else if (m.type === 'ping') post({ type: 'pong' });
    else if (m.type === 'teammate_added' && !roster.includes(m.teammate.name)) {
      data.team.teammates.push(m.teammate); // the next runtime's roster and system prompt name it
      roster.push(m.teammate.name);
    }
    else if (m.type === 'model_events' && model instanceof IpcModelClient) model.receive(m.callId, m.events as ModelStreamEvent[]);
    else if (m.type === 'store_result') calls?.receive(m.callId, m.ok, m.value, m.error);
    else if (m.type === 'worktree_ready') {
      worktrees.get(m.requestId)?.({ ok: m.ok, path: m.path, branch: m.branch, error: m.error });
      worktrees.delete(m.requestId);
    }
  });
  warmToolDefinitions(data.teammate.planMode);
  await teammate.run();
  post({ type: 'stopped' });
  port.close();
}

/** The log an out-of-process teammate keeps: it sends each event to the lead, which writes it. */
const sentLog = (post: (m: FromWorker) => void) => ({
  append(event: TeamEvent, at?: Date): LoggedEvent {
    const logged: LoggedEvent = { ts: (at ?? new Date()).toISOString(), ...event };
    post({ type: 'event', event: logged as unknown as Record<string, unknown> });
    return logged;
  },
});

/**
 * The teammate's task index, mailbox and event log. In the lead's process it
 * writes the files itself; out of it (`writesViaLead`) every write is a call
 * to the lead, which alone writes the team's files.
 */
function storesFor(data: WorkerData, roster: string[], post: (m: FromWorker) => void) {
  // Finished tasks' bodies stay in their files: a copy per teammate of every one was most of its board (slim.ts).
  const tasks = TaskStore.fromSnapshot(data.repoRoot, data.tasks, { finishedBodies: false });
  const mailbox = new MailboxStore(data.repoRoot, { roster });
  if (!data.writesViaLead) {
    const events = EventLog.forRepo(data.repoRoot, (e) => post({ type: 'event', event: e as unknown as Record<string, unknown> }));
    return { tasks, mailbox, events, calls: undefined };
  }
  const calls = new StoreCalls(post);
  return { tasks: remoteTasks(tasks, calls), mailbox: remoteMailbox(mailbox, calls), events: sentLog(post), calls };
}

function parseChanges(json: string): TaskChanges | null {
  try {
    const parsed = TaskChangesSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Takes in the lead's changes; true when a task is now ready for `agent` (a dependant freed by one counts). */
function adoptChanges(tasks: TaskStore, updated: Task[], removed: string[], agent: string): boolean {
  const candidates = new Set<string>();
  for (const task of updated) {
    candidates.add(task.id);
    for (const id of tasks.adopt(task)) candidates.add(id);
  }
  for (const id of removed) for (const freed of tasks.adoptRemoval(id)) candidates.add(freed);
  return [...candidates].some((id) => {
    const task = tasks.get(id);
    return tasks.isReady(id) && (task?.owner === null || task?.owner === agent);
  });
}

