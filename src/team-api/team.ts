/**
 * `Team`: a team of agents on one repository, for a program. It is the
 * daemon's lead (`Lead.start`) — the same files, worker threads, watcher,
 * merges and cron — with the shape of a team manager: create a teammate and
 * run it, send it mail, ask it to shut down, stop one or all, and stream
 * every event. Files stay the truth: mail sent here is in `.mailboxes/`,
 * a first task in `.tasks/`, and the CLI sees both.
 */
import { resolve } from 'node:path';
import { EventChannel } from '../agent/event-channel.js';
import { OptionsError, parseOptions } from '../config/options.js';
import type { TeamConfig } from '../config/schema.js';
import { Lead } from '../lead/lead.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { TaskStore } from '../store/tasks/index.js';
import type { Message, Outcome } from '../store/types.js';
import { shutdownRequestMessage } from '../teammate/protocol.js';
import { TeammateRunner } from './runner.js';
import {
  TeamError,
  TeamOpenOptionsSchema,
  TeammateOptionsSchema,
  type TeamOpenOptions,
  type TeammateOptions,
  type TeamStreamEvent,
} from './types.js';

/** The repositories a team is open on in this process. */
const OPEN_HERE = new Set<string>();

export class Team implements AsyncDisposable {
  private closing: Promise<void> | null = null;

  private constructor(readonly lead: Lead) {}

  /**
   * Starts the team on `repo` (the daemon's lead, in this process). Throws an
   * `OptionsError` for a bad option, a `TeamError` when the team cannot start
   * (a bad `.team/config.json`, another lead already on the repository).
   */
  static async open(repo: string, options: TeamOpenOptions = {}): Promise<Team> {
    if (typeof repo !== 'string' || repo === '') throw new OptionsError('Team.open', ['repo: expected the path of a repository']);
    const o = parseOptions('Team.open options', TeamOpenOptionsSchema, options);
    const repoRoot = resolve(repo);
    // The pid lock tells leads of other processes apart; two in this one are refused here.
    if (OPEN_HERE.has(repoRoot)) throw new TeamError(`a team is already open on ${repoRoot} in this process`);
    OPEN_HERE.add(repoRoot);
    const started = await Lead.start({
      repoRoot,
      model: o.model,
      teammates: o.teammates,
      // As given (parsed, every default would override the file): the lead merges it over the file and validates the whole.
      patch: options.config as Partial<TeamConfig> | undefined,
      idleRecheckMs: o.idleRecheckMs,
      record: o.record,
      onEvent: o.onEvent,
      forwardAgentEvents: true,
    });
    if (!started.ok) {
      OPEN_HERE.delete(repoRoot);
      throw new TeamError(started.error);
    }
    return new Team(started.value);
  }

  get tasks(): TaskStore {
    return this.lead.tasks;
  }

  get mailbox(): MailboxStore {
    return this.lead.mailbox;
  }

  /** The teammates running now (configured ones and created ones). */
  teammates(): string[] {
    return this.lead.pool.names();
  }

  /** A teammate for this run (not written to `.team/config.json`); it starts with `run()`. */
  createTeammate(config: TeammateOptions): TeammateRunner {
    const parsed = parseOptions('createTeammate config', TeammateOptionsSchema, config);
    if (this.lead.config.teammates.some((t) => t.name === parsed.name))
      throw new OptionsError('createTeammate config', [`name: the team already has a teammate "${parsed.name}"`]);
    if (['lead', 'user', 'any'].includes(parsed.name))
      throw new OptionsError('createTeammate config', [`name: "${parsed.name}" is a reserved name`]);
    return new TeammateRunner(this.lead, parsed);
  }

  /** Mail to `agent` (in `.mailboxes/<agent>.json`), from `from` (default `user`); the recipient is woken at once. */
  async send(agent: string, text: string, from = 'user'): Promise<Outcome<Message>> {
    return this.deliver(await this.lead.mailbox.send({ from, to: agent, content: text }));
  }

  /**
   * Asks `agent` to shut down. One with `autoApproveShutdown` (the default)
   * approves and stops after its current step; otherwise its model decides.
   * An ordinary message carrying `<shutdown_request …/>` means the same.
   */
  async requestShutdown(agent: string, from = 'user', reason = 'requested'): Promise<Outcome<Message>> {
    return this.deliver(await this.lead.mailbox.send(shutdownRequestMessage(from, agent, reason)));
  }

  /** Stops one teammate for good: its current step ends, its task goes back to the board. False if it was not running. */
  stop(agent: string): Promise<boolean> {
    return this.lead.stopTeammate(agent, 'stopped by the team API');
  }

  /** Stops every teammate (the lead keeps running: mail and tasks still land in the files). */
  async stopAll(): Promise<void> {
    await Promise.all(this.teammates().map((name) => this.stop(name)));
  }

  /**
   * Every event of the team from now on, until it closes: the team's events
   * and, as `agent_event`, its teammates' runtime events. Listening starts
   * when this is called, not at the first `next()`.
   */
  events(): AsyncGenerator<TeamStreamEvent> {
    const channel = new EventChannel<TeamStreamEvent>();
    const offTeam = this.lead.onEvent((e) => {
      channel.push(e);
      if (e.type === 'daemon_stopped') channel.close();
    });
    const offAgent = this.lead.onAgentEvent((agent, event) =>
      channel.push({ type: 'agent_event', agent, event, ts: new Date().toISOString() }),
    );
    if (this.closing) channel.close();
    return drain(channel, () => {
      offTeam();
      offAgent();
    });
  }

  /** Stops the teammates and the lead; safe to call twice. */
  close(): Promise<void> {
    this.closing ??= this.lead.stop('team closed').finally(() => OPEN_HERE.delete(this.lead.options.repoRoot));
    return this.closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private deliver(sent: Outcome<Message>): Outcome<Message> {
    if (!sent.ok) return sent;
    const m = sent.value;
    this.lead.log.append({ type: 'message_sent', id: m.id, from: m.from, to: m.to, messageType: m.type });
    if (m.to !== 'lead' && m.to !== 'user') this.lead.pool.send(m.to, { type: 'wake', reason: 'mail' });
    return sent;
  }
}

async function* drain<T>(channel: EventChannel<T>, off: () => void): AsyncGenerator<T> {
  try {
    yield* channel;
  } finally {
    off();
  }
}
