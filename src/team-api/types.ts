/**
 * The contracts of the team API: `Team.open`'s options, `createTeammate`'s
 * config, and the events a team streams. Every options object is a zod
 * schema; the types are inferred from them, and a bad option throws an
 * `OptionsError` naming it.
 */
import { z } from 'zod';
import type { AgentEvent } from '../agent/types.js';
import { fn } from '../config/options.js';
import { TeamConfigSchema, TeammateConfigSchema } from '../config/schema.js';
import type { LoggedEvent } from '../observe/types.js';

export const TeamOpenOptionsSchema = z.strictObject({
  /** Every agent uses this model (an Anthropic model name or `scripted:<path>`), over the config's. */
  model: z.string().min(1).optional(),
  /** How many of the configured teammates start (the configured ones first, then worker-K); default: the config's. */
  teammates: z.number().int().nonnegative().optional(),
  /** Fields of `.team/config.json`, merged over the file for this run (the file is not changed). */
  config: TeamConfigSchema.partial().optional(),
  /** How often an idle teammate re-checks the files when no wake came (default 5 s). */
  idleRecheckMs: z.number().int().positive().optional(),
  /** Save the model's answers to this replayable script. */
  record: z.string().min(1).optional(),
  /** Called with every team event, as `team.events()` yields them. */
  onEvent: fn<(e: LoggedEvent) => void>('event → void').optional(),
});
export type TeamOpenOptions = z.input<typeof TeamOpenOptionsSchema>;

/** `createTeammate`'s config: a teammate entry of `.team/config.json` (only `name` is required). */
export const TeammateOptionsSchema = TeammateConfigSchema;
export type TeammateOptions = z.input<typeof TeammateOptionsSchema>;

/** One event of a teammate's runtime (an `AgentEvent`: init, assistant, user, result …), tagged with who ran it. */
export interface AgentEventOf {
  type: 'agent_event';
  agent: string;
  event: AgentEvent;
  ts: string;
}

/** What `team.events()` yields: the team's own events (`.team/state/events.jsonl`) and its teammates' runtime events. */
export type TeamStreamEvent = LoggedEvent | AgentEventOf;

/** `Team.open` could not start the team (a bad config file, another daemon on the repository …). */
export class TeamError extends Error {
  readonly code = 'ERR_TEAMD_TEAM';
  constructor(message: string) {
    super(message);
    this.name = 'TeamError';
  }
}
