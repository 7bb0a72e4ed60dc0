/**
 * What the lead does for the people watching: the daemon log, needs-you
 * notifications, stall reports to the lead's mailbox, and budgets (a
 * teammate over its budget stops taking tasks and says so; a team over its
 * budget stops gracefully).
 */
import type { TeamConfig } from '../config/schema.js';
import { createNotifier, reportStalled } from '../notify/index.js';
import type { Notifier } from '../notify/types.js';
import { budgetChange, budgetMessage, budgetState, type BudgetState } from '../observe/budget.js';
import type { TranscriptSpendReader } from '../observe/cost.js';
import { createDaemonLogger, type DaemonLogger } from '../observe/daemon-log.js';
import type { LoggedEvent, TeamEvent } from '../observe/types.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { TaskStore } from '../store/tasks/index.js';
import { archiveOldTasks, collectGarbage } from '../history/gc.js';
import { overflowAt } from '../store/tasks/hot-board.js';
import { gcSummary } from '../history/report.js';
import { budgetReader } from './budget-reader.js';
import { ProgressTimes } from './progress.js';

export interface OversightDeps {
  repoRoot: string;
  config: TeamConfig;
  mailbox: MailboxStore;
  log: (e: TeamEvent) => void;
  /** A teammate reached its budget: it must stop taking tasks. */
  retireTeammate: (name: string, reason: string) => void;
  /** The team reached its budget. */
  stopTeam: (reason: string) => void;
  /** `.team/config.json` read again (with the start's overrides), for the team budget on `teamd resume`. */
  rereadConfig: () => Promise<{ ok: true; config: TeamConfig } | { ok: false; error: string }>;
  /** The lead's board: its periodic gc archives finished tasks through it (see history/gc.ts). */
  tasks?: TaskStore;
}

/** The lead's first gc waits this long after the start (a start is busy enough; short runs never pay for it). */
const FIRST_GC_MS = 60_000;

const BUDGET_TRIGGERS = new Set(['task_completed', 'task_failed', 'task_released', 'teammate_state']);

export class Oversight {
  private readonly daemonLog: DaemonLogger;
  private readonly notifier: Notifier;
  private readonly reader: TranscriptSpendReader;
  private budget: BudgetState | null = null;
  private checking: Promise<void> | null = null;
  private timers: NodeJS.Timeout[] = [];
  /** Who last did something (events, model calls), for the stall check. */
  readonly progress = new ProgressTimes();
  /** The team budget in force: the config's at start, the config's again after each budget resume. */
  private teamBudgetUsd: number | undefined;

  constructor(private readonly deps: OversightDeps) {
    this.teamBudgetUsd = deps.config.maxBudgetUsd;
    this.daemonLog = createDaemonLogger(deps.repoRoot);
    this.reader = budgetReader(deps.repoRoot, deps.config.prices);
    this.notifier = createNotifier(deps.config, {
      repoRoot: deps.repoRoot,
      onError: (m) => this.daemonLog.pino.warn(m),
    });
  }

  start(): void {
    const stallEvery = Math.max(1_000, Math.floor(this.deps.config.stallAfterMs / 4));
    this.timers.push(setInterval(() => void this.reportStalls(), stallEvery));
    if (this.hasBudgets()) this.timers.push(setInterval(() => void this.checkBudgets(), 30_000));
    const gcEvery = this.deps.config.history.gcEveryMs;
    if (gcEvery > 0) {
      this.timers.push(setTimeout(() => void this.collectGarbage(), Math.min(gcEvery, FIRST_GC_MS)));
      this.timers.push(setInterval(() => void this.collectGarbage(), gcEvery));
    }
    for (const t of this.timers) t.unref();
  }

  onEvent(e: LoggedEvent): void {
    this.progress.onEvent(e);
    this.daemonLog.event(e);
    this.notifier.onEvent(e);
    if (this.hasBudgets() && BUDGET_TRIGGERS.has(e.type)) void this.checkBudgets();
    if (e.type === 'task_completed') void this.archiveOverflow();
  }

  private archiving: Promise<void> | null = null;

  /**
   * Between gc runs: a board holding more finished tasks than
   * `history.keepFinishedTasks` (plus a margin, so moves come in batches)
   * sends the oldest beyond it to the archive at once — a burst of work must
   * not grow the lead's memory until the next hourly gc.
   */
  archiveOverflow(): Promise<void> {
    const tasks = this.deps.tasks;
    const keep = this.deps.config.history.keepFinishedTasks;
    if (!tasks || this.archiving) return this.archiving ?? Promise.resolve();
    if (tasks.list({ status: ['completed', 'cancelled'] }).length < overflowAt(keep)) return Promise.resolve();
    let moved = 0;
    this.archiving = archiveOldTasks(this.deps.repoRoot, this.deps.config, tasks)
      .then((ids) => {
        moved = ids.length;
        this.daemonLog.pino.info({ archived: moved }, 'finished tasks over keepFinishedTasks archived');
      })
      .catch((err: unknown) => this.daemonLog.pino.warn({ err }, 'archiving finished tasks failed'))
      .finally(() => {
        this.archiving = null;
        // Tasks finished during the pass may have filled it again; a pass that moved nothing (all held
        // by open merges, or locked) waits for the next completion, so this never spins.
        if (moved > 0) void this.archiveOverflow();
      });
    return this.archiving;
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await this.checking;
    await this.collecting;
    await this.archiving;
    await this.notifier.flush();
    this.daemonLog.close();
  }

  private hasBudgets(): boolean {
    const c = this.deps.config;
    return this.teamBudgetUsd !== undefined || c.teammates.some((t) => t.maxBudgetUsd !== undefined);
  }

  /**
   * Before a budget pause ends: reads maxBudgetUsd from the config again (a
   * raised budget counts without a restart). The budget message when the team
   * is still over it (or why the config cannot be read), null when it may go on.
   */
  async recheckTeamBudget(): Promise<string | null> {
    const loaded = await this.deps.rereadConfig();
    if (!loaded.ok) return `the budget cannot be read again: ${loaded.error}`;
    this.teamBudgetUsd = loaded.config.maxBudgetUsd;
    await this.checking;
    const next = await budgetState(this.deps.repoRoot, this.budgetConfig(), { reader: this.reader });
    // Only the team's part: a teammate newly over its own budget is still reported by the next check.
    this.budget = this.budget ? { ...this.budget, team: next.team } : next;
    return next.team.over ? budgetMessage(next.team) : null;
  }

  private budgetConfig(): TeamConfig {
    return { ...this.deps.config, maxBudgetUsd: this.teamBudgetUsd };
  }

  private collecting: Promise<void> | null = null;

  /** One gc at a time; what it did is one notice (nothing when it did nothing). */
  collectGarbage(): Promise<void> {
    this.collecting ??= collectGarbage(this.deps.repoRoot, this.deps.config, {
      tasks: this.deps.tasks,
      reopenDaemonLog: () => this.daemonLog.reopen(),
      branches: false, // the merge path deletes them, in the lead's git lane
    })
      .then((r) => {
        const line = gcSummary(r);
        if (line) this.deps.log({ type: 'notice', message: `gc: ${line}` });
      })
      .catch((err: unknown) => this.daemonLog.pino.warn({ err }, 'gc failed'))
      .finally(() => (this.collecting = null));
    return this.collecting;
  }

  private async reportStalls(): Promise<void> {
    const r = await reportStalled(this.deps.repoRoot, this.deps.config, {
      mailbox: this.deps.mailbox,
      progress: this.progress.snapshot(),
    });
    for (const s of r.reported)
      this.deps.log({ type: 'notice', agent: s.agent, message: `stalled (${s.reason}) since ${s.since}` });
  }

  /** One check at a time; a trigger during a check is covered by the next trigger or the timer. */
  private checkBudgets(): Promise<void> {
    this.checking ??= this.runBudgetCheck().finally(() => (this.checking = null));
    return this.checking;
  }

  private async runBudgetCheck(): Promise<void> {
    const next = await budgetState(this.deps.repoRoot, this.budgetConfig(), { reader: this.reader });
    const change = budgetChange(this.budget, next);
    this.budget = next;
    for (const name of change.teammates) {
      const b = next.teammates.find((t) => t.name === name)!;
      const message = budgetMessage(b);
      this.deps.log({ type: 'notice', agent: name, message });
      await this.deps.mailbox.send({
        from: name,
        to: 'lead',
        type: 'message',
        content: message,
        metadata: { budget: true },
      });
      this.deps.retireTeammate(name, message);
    }
    if (change.team) this.deps.stopTeam(budgetMessage(next.team));
  }
}
