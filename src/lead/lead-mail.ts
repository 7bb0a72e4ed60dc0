/**
 * The lead's own mailbox. Teammates report here (task_completed, permission
 * and plan requests, shutdown responses, questions). Every message is logged;
 * when the lead agent is enabled it reads them in its conversation and may
 * answer (send_message, task tools, approve/reject). Without a lead agent the
 * messages are archived as they arrive (`teamd inbox lead --history`), and
 * requests wait for a person in `teamd approvals`.
 */
import { basename } from 'node:path';
import { recordHookFailure } from '../hooks/failure-log.js';
import { createHookRunner } from '../hooks/runner.js';
import { taskCreatedHook } from '../hooks/team-events.js';
import type { HookRunner, HookSettings } from '../hooks/types.js';
import { AgentRuntime } from '../agent/runtime.js';
import type { TeamConfig } from '../config/schema.js';
import { rosterOf } from '../config/load.js';
import type { TeamEvent } from '../observe/types.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { TaskStore } from '../store/tasks/index.js';
import type { Message } from '../store/types.js';
import { formatMail } from '../teammate/prompts.js';
import { TEAM_TOOL_RULES, teamTools } from '../teammate/tools/index.js';
import { cronTools, type CronToolService } from '../tools/cron/index.js';
import { builtinTools } from '../tools/index.js';
import { transcriptsDir } from '../teammate/runtime-factory.js';
import { answerRequestTool } from './answer-tool.js';
import { leadSystemPrompt } from './lead-prompt.js';
import { leadModelUse, type LeadModels } from './models.js';
import { thinkingOptionsOf } from '../model/thinking.js';

const ROUTINE = new Set([
  'task_completed',
  'idle_notification',
  'shutdown_response',
  'permission_response',
  'plan_approval_response',
]);

export interface LeadMailDeps {
  repoRoot: string;
  config: TeamConfig;
  mailbox: MailboxStore;
  tasks: TaskStore;
  models: LeadModels;
  log: (e: TeamEvent) => void;
  /** The cron tools' service over the lead's scheduler. */
  cron?: CronToolService;
  /** Hooks from .claude/settings*.json, plugins and the team config: the lead's agent runs them too. */
  hooks?: HookSettings;
}

/** The lead's hooks: in the repository root, failures in the event log and `teamd status`. */
function leadHookRunner(deps: LeadMailDeps): HookRunner {
  return createHookRunner(deps.hooks ?? {}, {
    cwd: deps.repoRoot,
    projectDir: deps.repoRoot,
    permissionMode: 'default',
    onFailure: (failure) => {
      deps.log({ type: 'notice', agent: 'lead', message: `hook: ${failure.message}` });
      recordHookFailure(deps.repoRoot, 'lead', failure);
    },
  });
}

export class LeadMail {
  private runtime: AgentRuntime | null = null;
  private busy: Promise<void> = Promise.resolve();
  private again = false;
  private closed = false;

  constructor(private readonly deps: LeadMailDeps) {}

  get agentEnabled(): boolean {
    return this.deps.config.lead.agent;
  }

  async start(): Promise<void> {
    await this.wake();
  }

  /** Reads the lead's inbox now (serialised: a wake during a read schedules one more). */
  wake(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.again = true;
    this.busy = this.busy
      .then(async () => {
        while (this.again && !this.closed) {
          this.again = false;
          await this.readOnce();
        }
      })
      .catch((err: unknown) =>
        this.deps.log({
          type: 'notice',
          agent: 'lead',
          message: `reading the lead's mail failed: ${String(err)}`,
        }),
      );
    return this.busy;
  }

  /** Runs one prompt through the lead agent, in turn with mail (never two runs at once). */
  converse(prompt: string): Promise<void> {
    const run = this.busy.then(async () => {
      for await (const _ of this.agent().submitMessage(prompt)) {
        // the transcript records the conversation
      }
    });
    this.busy = run.catch(() => undefined);
    return run;
  }

  /** The lead agent, created on first use (also used by `teamd run` to plan). */
  agent(): AgentRuntime {
    if (this.runtime) return this.runtime;
    const { config, repoRoot, tasks, mailbox } = this.deps;
    const roster = rosterOf(config);
    const readOnly = builtinTools().filter((t) => t.name !== 'write' && t.name !== 'edit');
    const hooks = leadHookRunner(this.deps);
    const base = () => ({ ...(this.runtime?.hookSession ?? {}), teammate_name: 'lead', team_name: basename(repoRoot) });
    this.runtime = new AgentRuntime({
      model: this.deps.models.leadClient(leadModelUse(config)),
      cwd: repoRoot,
      tools: [...readOnly, ...teamTools('lead'), answerRequestTool, ...cronTools],
      systemPrompt: leadSystemPrompt(config, config.lead.role),
      agentName: 'lead',
      maxTurns: config.lead.maxTurns,
      maxTokens: config.maxTokens,
      thinking: thinkingOptionsOf(config),
      permissionPolicy: {
        defaultMode: 'default',
        allow: [...TEAM_TOOL_RULES, 'AnswerRequest', 'CronCreate', 'CronList', 'CronDelete'],
        deny: ['Edit', 'Write'],
        ask: [],
      },
      transcriptDir: transcriptsDir(repoRoot, 'lead'),
      prices: config.prices,
      hooks,
      services: {
        team: {
          tasks,
          mailbox,
          roster: () => roster,
          self: 'lead',
          beforeCreate: taskCreatedHook(hooks, base),
          onSent: (m: { id: string; to: string; type: string }) =>
            this.deps.log({ type: 'message_sent', id: m.id, from: 'lead', to: m.to, messageType: m.type }),
        },
        requests: { repoRoot, mailbox, log: this.deps.log },
        ...(this.deps.cron ? { cron: this.deps.cron } : {}),
      },
    });
    return this.runtime;
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.runtime?.interrupt();
    await this.busy;
  }

  private async readOnce(): Promise<void> {
    const batch = await this.deps.mailbox.take('lead');
    if (batch.length === 0) return;
    // Routine reports are logged and archived without a model call: waking the
    // lead's model for every completion is how other tools waste its tokens.
    const needsAnswer = batch.filter((m) => !ROUTINE.has(m.type));
    if (this.agentEnabled && needsAnswer.length) await this.answer(needsAnswer);
    await this.deps.mailbox.ack(
      'lead',
      batch.map((m) => m.id),
    );
    for (const m of batch) this.deps.log({ type: 'message_delivered', id: m.id, to: 'lead' });
  }

  private async answer(batch: Message[]): Promise<void> {
    const prompt = `New messages for the lead:\n\n${formatMail(batch)}\n\nAct on them if needed; keep it brief.`;
    for await (const _ of this.agent().submitMessage(prompt)) {
      // the transcript records the conversation
    }
  }
}
