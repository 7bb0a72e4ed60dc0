/**
 * The lead: one per repository. It owns the pid lock, the one watcher, the
 * teammates' worker threads, the lease reaper, the merge queue and the cron
 * scheduler. It never decides what a teammate does: it keeps the index
 * current, says "look now", and reconciles the files after crashes.
 */
import { loadHookSettings } from '../hooks/settings.js';
import type { HookSettings } from '../hooks/types.js';
import { stateProblems } from '../store/state-file.js';
import { rosterOf } from '../config/load.js';
import type { TeamConfig, TeammateConfig } from '../config/schema.js';
import type { AgentEvent } from '../agent/types.js';
import { EventLog } from '../observe/event-log.js';
import type { LoggedEvent, TeamEvent } from '../observe/types.js';
import { MailboxStore } from '../store/mailbox/index.js';
import { TaskStore } from '../store/tasks/index.js';
import { formatProblem } from '../store/problems.js';
import { teamFolderRefusal } from '../store/team-folders.js';
import type { FileProblem, Outcome } from '../store/types.js';
import type { FromWorker, ToWorker } from '../teammate/types.js';
import type { ModelError } from '../model/types.js';
import { LeadCron } from './cron.js';
import { LeadMail } from './lead-mail.js';
import { LeadMerges } from './merges.js';
import { agentReviewRun } from './reviewer.js';
import { LeadModels, leadModelUse, modelOf, modelUseOf, type ModelUse } from './models.js';
import { Oversight } from './oversight.js';
import { excludeLockFolders } from '../git/exclude.js';
import { acquirePidLock } from './pid-lock.js';
import { TeammatePool } from './pool.js';
import { appendTeammateEvent, hostsFor } from './hosted.js';
import { answerStoreCall, type StoreCallTargets } from './store-calls.js';
import { makeHost, hostConfigOf } from '../teammate/hosts/index.js';
import type { StartedTeammate, TeammateChannel, TeammateHost } from '../teammate/hosts/types.js';
import { clearStalePause, TeamPause } from './pause.js';
import { reclaimFrom, reclaimLeaseless, reconcileOnBoot } from './reconcile.js';
import { resolveTeamConfig, type ConfigOverrides } from './team-config.js';
import { ProcessGroups } from './process-groups.js';
import { TaskShare } from './task-share.js';
import { watchTeamFolders, type TeamWatcher, type WatchHit } from './watcher.js';

const RESERVED_NAMES = new Set(['lead', 'user', 'any']);

export interface LeadOptions extends ConfigOverrides {
  repoRoot: string;
  /** `--record <path>`: save the model's answers as a replayable script. */
  record?: string;
  onEvent?: (e: LoggedEvent) => void;
  /** How often an idle teammate re-checks the files when no wake came (default 5 s). */
  idleRecheckMs?: number;
  /** Start no teammate until `releaseTeammates()` (goal mode reviews the plan first). */
  holdTeammates?: boolean;
  /** Waits after consecutive model outages (default: pause.ts OUTAGE_BACKOFF_MS). */
  outageBackoffMs?: number[];
  /** Teammates send their runtime's events (see `onAgentEvent`): the library's team API turns it on. */
  forwardAgentEvents?: boolean;
}

export class Lead {
  private readonly listeners = new Set<(e: LoggedEvent) => void>();
  private readonly agentListeners = new Set<(agent: string, e: AgentEvent) => void>();
  private watcher: TeamWatcher | null = null;
  private reaper: NodeJS.Timeout | null = null;
  private stopped: Promise<void> | null = null;
  private readonly reported = new Set<string>();
  readonly log: EventLog;
  readonly pool: TeammatePool;
  readonly merges: LeadMerges;
  readonly cron: LeadCron;
  readonly mail: LeadMail;
  readonly models: LeadModels;
  private readonly oversight: Oversight;
  private readonly share: TaskShare;
  private readonly processGroups: ProcessGroups;
  /** Auth errors, outages and a spent budget pause the team (see pause.ts). */
  readonly pause: TeamPause;
  private released = false;
  /** `name\0path` of every worktree granted to a teammate: the only ones the lead commits for it (store-calls.ts). */
  private readonly grants = new Set<string>();
  private get storeTargets(): StoreCallTargets {
    const { tasks, mailbox, grants } = this;
    return { repoRoot: this.options.repoRoot, tasks, mailbox, granted: (name, path) => grants.has(`${name}\0${path}`), cron: this.cron.toolService() };
  }

  private constructor(
    readonly options: LeadOptions,
    readonly config: TeamConfig,
    readonly tasks: TaskStore,
    readonly mailbox: MailboxStore,
    private readonly releasePid: () => void,
    /** The mailbox's recipients (the same array): a teammate added at run time joins it. */
    private readonly roster: string[],
    hooks: HookSettings = {},
    /** Each teammate's host (hosts.ts); a teammate missing here (added at run time) gets one when it starts. */
    private readonly hosts: Map<string, TeammateHost> = new Map(),
  ) {
    this.log = EventLog.forRepo(options.repoRoot, (e) => this.emit(e));
    mailbox.onProblem = (p) =>
      this.reportOnce(p, () => this.log.append({ type: 'notice', message: `mailbox: ${formatProblem(p)}` }));
    this.share = new TaskShare(tasks, (msg) => this.pool.broadcast(msg));
    this.processGroups = new ProcessGroups(options.repoRoot);
    this.pause = new TeamPause({
      repoRoot: options.repoRoot,
      log: (e) => this.log.append(e),
      stopTeammates: (reason) => this.pool.stopAll(reason),
      startTeammates: () => this.startTeammates(),
      recheckBudget: () => this.oversight.recheckTeamBudget(),
      outageBackoffMs: options.outageBackoffMs,
    });
    const onCallEnd = (error?: ModelError) =>
      error ? this.pause.onModelError(error) : this.pause.onModelOk();
    this.models = new LeadModels({
      repoRoot: options.repoRoot,
      team: config,
      record: options.record,
      onCallEnd,
    });
    this.pool = new TeammatePool((name, restarts) => this.workerData(name, restarts), {
      onMessage: (name, msg, worker, started) => this.onWorker(name, msg, worker, started),
      onCrash: (name) => this.onCrash(name),
      log: (e) => this.log.append(e),
      onGroups: (name, pgids) => this.processGroups.set(name, pgids),
    }, undefined, (name) => this.hostOf(name));
    const log = (e: TeamEvent) => this.log.append(e);
    this.merges = new LeadMerges({
      repoRoot: options.repoRoot,
      config,
      tasks,
      mailbox,
      log: (e, at) => this.log.append(e, at),
      runReviewer: agentReviewRun(options.repoRoot, config, () => this.reviewerModel()),
    });
    this.cron = new LeadCron({ repoRoot: options.repoRoot, config, mailbox, pool: this.pool, log });
    this.mail = new LeadMail({
      repoRoot: options.repoRoot,
      config,
      mailbox,
      tasks,
      models: this.models,
      log,
      cron: this.cron.toolService(),
      hooks,
    });
    this.oversight = new Oversight({
      repoRoot: options.repoRoot,
      config,
      mailbox,
      log,
      retireTeammate: (name, reason) => this.pool.retire(name, reason),
      stopTeam: (reason) => void this.pause.onBudget(reason),
      rereadConfig: () => resolveTeamConfig(options.repoRoot, options),
      tasks,
    });
  }

  static async start(options: LeadOptions): Promise<Outcome<Lead>> {
    // Before anything is read or written through them (the pid lock lives in .team/state).
    const badFolders = teamFolderRefusal(options.repoRoot);
    if (badFolders !== undefined) return { ok: false, error: badFolders };
    const resolved = await resolveTeamConfig(options.repoRoot, options);
    if (!resolved.ok) return { ok: false, error: resolved.error };
    const lock = acquirePidLock(options.repoRoot);
    if (!lock.ok) return { ok: false, error: lock.error };
    try {
      const config = resolved.config;
      const hosts = hostsFor(config, options.repoRoot);
      if (!hosts.ok) {
        lock.release();
        return { ok: false, error: hosts.error };
      }
      const tasks = await TaskStore.open(options.repoRoot);
      const roster = rosterOf(config);
      const mailbox = new MailboxStore(options.repoRoot, { roster });
      const hooks = await loadHookSettings(options.repoRoot, config.hooks, { pluginDirs: config.plugins ?? [] });
      const lead = new Lead(options, config, tasks, mailbox, lock.release, roster, hooks.settings, hosts.value);
      for (const problem of hooks.problems) lead.log.append({ type: 'notice', agent: 'lead', message: `hooks: ${problem}` });
      for (const warning of resolved.warnings ?? [])
        lead.log.append({ type: 'notice', agent: 'lead', message: `agent file: ${warning}` });
      if (options.onEvent) lead.listeners.add(options.onEvent);
      await lead.boot();
      return { ok: true, value: lead };
    } catch (err) {
      lock.release();
      return { ok: false, error: (err as Error).message };
    }
  }

  onEvent(fn: (e: LoggedEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Every event of the teammates' runtimes (no token deltas); only with `forwardAgentEvents`. */
  onAgentEvent(fn: (agent: string, e: AgentEvent) => void): () => void {
    this.agentListeners.add(fn);
    return () => this.agentListeners.delete(fn);
  }

  /**
   * A teammate that is not in the config, started now (the library's
   * `createTeammate`). For this run only: `.team/config.json` is unchanged;
   * the running teammates are told, so they can mail it.
   */
  async addTeammate(teammate: TeammateConfig): Promise<Outcome<void>> {
    const name = teammate.name;
    if (this.stopped) return { ok: false, error: 'the team is stopping' };
    if (RESERVED_NAMES.has(name)) return { ok: false, error: `name: "${name}" is a reserved name` };
    if (this.config.teammates.some((t) => t.name === name))
      return { ok: false, error: `name: the team already has a teammate "${name}"` };
    const spec = modelOf(this.config, teammate, this.options.model);
    try {
      // on its own endpoint, when it names one (docs/MODELS.md)
      if (this.models.viaLead(spec)) await this.models.prepare([modelUseOf(this.config, teammate, this.options.model)]);
    } catch (err) {
      return { ok: false, error: `model: ${(err as Error).message}` };
    }
    if (this.stopped || this.config.teammates.some((t) => t.name === name))
      return { ok: false, error: `name: the team already has a teammate "${name}" (or is stopping)` };
    this.config.teammates.push(teammate);
    this.roster.push(name);
    this.pool.broadcast({ type: 'teammate_added', teammate });
    this.pool.add(name, this.config);
    return { ok: true, value: undefined };
  }

  /** Stops one teammate for good (it is not restarted); resolves once its worker exited, false if it was not running. */
  stopTeammate(name: string, reason = 'stop requested'): Promise<boolean> {
    return this.pool.stopOne(name, reason);
  }

  /** Resolves with the first event (from now on) matching `pred`; rejects after `timeoutMs`. */
  waitFor(pred: (e: LoggedEvent) => boolean, timeoutMs = 30_000): Promise<LoggedEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for an event`));
      }, timeoutMs);
      const off = this.onEvent((e) => {
        if (!pred(e)) return;
        clearTimeout(timer);
        off();
        resolve(e);
      });
    });
  }

  /** Graceful stop: teammates end their current step, tasks in progress go back to pending with a note. */
  stop(reason = 'stop requested'): Promise<void> {
    this.stopped ??= this.shutdown(reason);
    return this.stopped;
  }

  /** Starts the teammates held back by `holdTeammates`. */
  releaseTeammates(): void {
    this.released = true;
    if (this.pool.names().length === 0 && !this.pause.current) this.pool.start(this.config);
  }

  /** After a pause: the teammates again (not before goal mode released them, never while stopping). */
  private startTeammates(): void {
    if (this.stopped || (this.options.holdTeammates && !this.released)) return;
    this.pool.start(this.config);
  }

  /** Kills a teammate's worker (as a crash would); the pool restarts it. */
  killTeammate(name: string): Promise<void> {
    return this.pool.kill(name);
  }

  private async boot(): Promise<void> {
    const log = (e: TeamEvent) => this.log.append(e);
    const uses = this.config.teammates
      .map((t) => this.modelUse(t.name))
      .filter((use) => this.models.viaLead(typeof use === 'string' ? use : use.spec));
    const leadUse = leadModelUse(this.config);
    await this.models.prepare(this.config.lead.agent ? [...uses, leadUse] : uses);
    const stale = clearStalePause(this.options.repoRoot);
    if (stale)
      log({ type: 'notice', message: `cleared the previous run's pause (${stale.kind}): ${stale.reason}` });
    await reconcileOnBoot({ tasks: this.tasks, mailbox: this.mailbox, config: this.config, log });
    // Outside git there is nothing to hide the lock folders from.
    await excludeLockFolders(this.options.repoRoot);
    // Commands of a previous lead's teammates (it was killed outright, they ran on): ended first.
    const ended = await this.processGroups.endLeftovers();
    if (ended)
      log({
        type: 'notice',
        message: `ended ${ended} process group(s) left running by the previous run's teammates`,
      });
    await this.merges.start();
    this.watcher = await watchTeamFolders(
      this.options.repoRoot,
      (hit) => this.onHit(hit),
      (err) => log({ type: 'notice', message: `watcher: ${err.message}` }),
    );
    if (!this.options.holdTeammates) this.pool.start(this.config);
    await this.cron.start();
    await this.mail.start();
    const every = Math.max(100, Math.min(5_000, Math.floor(this.config.leaseMs / 2)));
    this.reaper = setInterval(() => void this.reap(), every);
    this.oversight.start();
    log({ type: 'daemon_started', pid: process.pid, teammates: this.pool.names() });
  }

  private async onHit(hit: WatchHit): Promise<void> {
    if (hit.kind === 'task') {
      const refreshed = await this.tasks.refresh(hit.id);
      if (refreshed.kind === 'invalid') this.reportProblems(refreshed.problems);
      // A real change reaches the teammates through `share` (the index tells it), never a re-read per worker.
      const task = this.tasks.get(hit.id);
      if (task) this.merges.noticeTask(task);
    } else if (hit.kind === 'mail') {
      if (hit.id === 'lead') void this.mail.wake();
      else this.pool.send(hit.id, { type: 'wake', reason: 'mail' });
    } else {
      await this.cron.reload(hit.id);
    }
  }

  /** A bad file is reported once per distinct problem, with its file and field; the daemon carries on. */
  private reportProblems(problems: FileProblem[]): void {
    for (const p of problems)
      this.reportOnce(p, () =>
        this.log.append({
          type: 'task_problem',
          file: p.file,
          message: p.field ? `${p.field}: ${p.message}` : p.message,
        }),
      );
  }

  private reportOnce(p: FileProblem, report: () => void): void {
    const key = `${p.file}|${p.field ?? ''}|${p.message}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    report();
  }

  private onWorker(name: string, msg: FromWorker, worker: TeammateChannel, started: StartedTeammate): void {
    const reply = (m: ToWorker) => worker.postMessage(m);
    if (msg.type === 'event' && started.writesViaLead) appendTeammateEvent(this.log, name, msg.event);
    else if (msg.type === 'event') this.emit(msg.event as unknown as LoggedEvent);
    else if (msg.type === 'agent_event') for (const fn of this.agentListeners) fn(name, msg.event as unknown as AgentEvent);
    else if (msg.type === 'model_call') {
      this.oversight.progress.note(name);
      this.models.host(this.modelUse(name)).call(worker, msg, name);
    }
    else if (msg.type === 'model_abort') this.models.host(this.modelUse(name)).abort(msg.callId);
    else if (msg.type === 'worktree_request')
      void this.grantWorktree(name, msg.taskId, started).then((g) => {
        if (g.ok && g.path) this.grants.add(`${name}\0${g.path}`);
        reply({ type: 'worktree_ready', requestId: msg.requestId, ...g });
      });
    else if (msg.type === 'store_call' && started.writesViaLead) void answerStoreCall(name, msg, this.storeTargets).then(reply);
    else if (msg.type === 'state' && msg.state === 'idle') this.cron.teammateIdle();
  }

  /**
   * A teammate out of the lead's process gets only the worktree of a task it
   * holds: its commands can take its channel and forge a request, and a
   * sandbox binds the worktree granted writable (hosts/sandbox-channel.ts).
   */
  private async grantWorktree(name: string, taskId: string, started: StartedTeammate): Promise<Awaited<ReturnType<LeadMerges['grantWorktree']>>> {
    if (!started.writesViaLead) return this.merges.grantWorktree(taskId, name);
    await this.tasks.refresh(taskId);
    const task = this.tasks.get(taskId);
    if (task?.owner === name && task.status === 'in_progress') return this.merges.grantWorktree(taskId, name);
    const error = `the worktree of task ${taskId}: not claimed by ${name}, refused`;
    this.log.append({ type: 'notice', agent: name, message: error });
    return { ok: false, error };
  }

  private async onCrash(name: string): Promise<void> {
    const log = (e: TeamEvent) => this.log.append(e);
    this.models.abortCallsOf(name);
    await reclaimFrom(this.tasks, name, `teammate ${name} crashed`, this.config.maxAttempts, log);
    await this.mailbox.recoverStale(name, 0);
  }

  private async reap(): Promise<void> {
    // A `.team/state/` file refused by this process (a FIFO, a device or secret link, too big or deep): said once.
    for (const p of stateProblems())
      this.reportOnce(p, () => this.log.append({ type: 'notice', message: `${p.file}: ${p.message}` }));
    await reclaimLeaseless(this.tasks, this.config.leaseMs, (e) => this.log.append(e));
    const changed = await this.tasks.reclaimExpired(new Date(), this.config.maxAttempts);
    for (const t of changed)
      this.log.append({
        type: 'task_reclaimed',
        task: t.id,
        previousOwner: null,
        attempts: t.attempts,
        failed: t.status === 'failed',
      });
  }

  /** The reviewer agent runs on the lead's model, through the lead's model host. */
  private async reviewerModel() {
    const use = leadModelUse(this.config, this.options.model);
    await this.models.prepare([use]);
    return this.models.leadClient(use);
  }

  /** A teammate's model on its endpoint (the lead's, for a name that is no teammate). */
  private modelUse(name: string): ModelUse {
    const t = this.config.teammates.find((m) => m.name === name);
    return t ? modelUseOf(this.config, t, this.options.model) : leadModelUse(this.config, this.options.model);
  }

  private modelSpec(name: string): string {
    const t = this.config.teammates.find((m) => m.name === name);
    return t ? modelOf(this.config, t, this.options.model) : (this.options.model ?? this.config.model);
  }

  private workerData(name: string, restarts: number) {
    const teammate = this.config.teammates.find((t) => t.name === name)!;
    const model = this.modelSpec(name);
    // The lead's index goes with it: a worker never reads every task file, and later changes come in order after it.
    this.share.flush();
    return {
      repoRoot: this.options.repoRoot,
      teammate,
      team: this.config,
      model,
      modelViaLead: this.models.viaLead(model),
      restarts,
      idleRecheckMs: this.options.idleRecheckMs,
      forwardEvents: this.options.forwardAgentEvents ?? false,
      tasks: this.tasks.snapshot(),
      writesViaLead: false, // an out-of-process host sets it
    };
  }

  /** The host of `name`; one added at run time gets its config's (a thread when that cannot run here). */
  private hostOf(name: string): TeammateHost {
    let host = this.hosts.get(name);
    if (!host) {
      const made = makeHost(hostConfigOf(this.config, this.config.teammates.find((t) => t.name === name)), this.options.repoRoot);
      if (!made.ok) throw new Error(made.error);
      this.hosts.set(name, (host = made.value));
    }
    return host;
  }

  private emit(e: LoggedEvent): void {
    this.oversight.onEvent(e);
    for (const fn of this.listeners) fn(e);
  }

  private async shutdown(reason: string): Promise<void> {
    this.log.append({ type: 'daemon_stopping', reason });
    if (this.reaper) clearInterval(this.reaper);
    this.pause.close();
    this.cron.stop();
    await this.mail.stop();
    await this.pool.stopAll(reason);
    this.models.abortAll();
    await this.watcher?.close();
    this.share.close();
    await this.merges.stop();
    this.log.append({ type: 'daemon_stopped' });
    await this.oversight.close();
    this.releasePid();
  }
}
