/**
 * A teammate as a program sees it: `run(prompt)` starts it and yields the
 * events of its runtime across everything it does — the first task, mail,
 * later tasks — and ends when it stops (a shutdown it approved, `team.stop`,
 * the team closing). The teammate itself is the daemon's: a worker thread
 * working from the files.
 */
import type { TeammateConfig } from '../config/schema.js';
import { EventChannel } from '../agent/event-channel.js';
import type { AgentEvent } from '../agent/types.js';
import type { Lead } from '../lead/lead.js';
import type { Outcome, Task } from '../store/types.js';
import { TeamError } from './types.js';

const SUBJECT_MAX = 120;

export class TeammateRunner {
  private started = false;
  /** The first task `run(prompt)` put on the board for this teammate. */
  firstTask: Task | null = null;

  constructor(
    private readonly lead: Lead,
    readonly config: TeammateConfig,
  ) {}

  get name(): string {
    return this.config.name;
  }

  /**
   * Starts the teammate. With `prompt`, its first task is that prompt: a task
   * assigned to it in `.tasks/` (subject: the first line). Events already
   * listened for when this returns, so none is missed before the first
   * `next()`. Leaving the loop early stops listening, not the teammate.
   */
  run(prompt?: string): AsyncGenerator<AgentEvent> {
    if (this.started) throw new TeamError(`teammate "${this.name}" is already running`);
    this.started = true;
    const channel = new EventChannel<AgentEvent>();
    const offAgent = this.lead.onAgentEvent((agent, e) => agent === this.name && channel.push(e));
    const offTeam = this.lead.onEvent((e) => {
      const stopped = e.type === 'teammate_state' && e.agent === this.name && e.state === 'stopped';
      if (stopped || e.type === 'daemon_stopped') channel.close();
    });
    return this.stream(channel, this.start(prompt), () => {
      offAgent();
      offTeam();
    });
  }

  private async start(prompt: string | undefined): Promise<Outcome<void>> {
    if (prompt !== undefined) {
      const task = await this.lead.tasks.create({ subject: subjectOf(prompt), description: prompt, owner: this.name });
      if (!task.ok) return { ok: false, error: `the first task: ${task.error}` };
      this.firstTask = task.value;
    }
    return this.lead.addTeammate(this.config);
  }

  private async *stream(channel: EventChannel<AgentEvent>, started: Promise<Outcome<void>>, off: () => void): AsyncGenerator<AgentEvent> {
    try {
      const outcome = await started;
      if (!outcome.ok) throw new TeamError(`createTeammate(${this.name}): ${outcome.error}`);
      yield* channel;
    } finally {
      off();
    }
  }
}

/** A task subject from a prompt: its first non-empty line, cut to a readable length. */
function subjectOf(prompt: string): string {
  const line = prompt.split('\n').find((l) => l.trim() !== '')?.trim() ?? 'Task';
  return line.length > SUBJECT_MAX ? `${line.slice(0, SUBJECT_MAX - 1)}…` : line;
}
