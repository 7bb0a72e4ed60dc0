import type { MailboxStore } from '../../store/mailbox/index.js';
import type { TaskStore } from '../../store/tasks/index.js';
import type { ToolContext } from '../../tools/types.js';

/** What the team tools reach through `ctx.services.team`. */
export interface TeamServices {
  tasks: TaskStore;
  mailbox: MailboxStore;
  /** Every name mail may go to (teammates, `lead`, `user`). */
  roster: () => string[];
  /** This agent's name (the sender of its messages). */
  self: string;
  /** Before `task_write` creates a task (TaskCreated hooks): an error text refuses it. */
  beforeCreate?: (input: { id?: string; subject: string; description?: string }) => Promise<string | null>;
  /** Called after a message is written, so the lead can log it. */
  onSent?: (msg: { id: string; to: string; type: string }) => void;
}

export function teamServices(ctx: ToolContext): TeamServices {
  const team = ctx.services.team as TeamServices | undefined;
  if (!team) throw new Error('team tools need ctx.services.team (they run only inside a team)');
  return team;
}
