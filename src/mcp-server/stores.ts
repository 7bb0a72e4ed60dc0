/**
 * The stores a tool works through, opened for each call: another process (the
 * daemon, a teammate, `teamd task add`) may have changed the files since the
 * last one, and the files are the truth. The same classes the CLI uses.
 */
import { loadConfig, rosterOf } from '../config/load.js';
import { TeamConfigSchema, type TeamConfig } from '../config/schema.js';
import { EventLog } from '../observe/event-log.js';
import { CronStore } from '../store/cron/store.js';
import { MailboxStore } from '../store/mailbox/store.js';
import { TaskStore } from '../store/tasks/store.js';
import type { Outcome } from '../store/types.js';
import type { McpScope } from './types.js';

export const openTasks = (scope: McpScope): Promise<TaskStore> => TaskStore.open(scope.repoRoot);

/** `.team/config.json`; an invalid one is an error naming the file and field (as the CLI says it). */
export async function teamConfig(scope: McpScope): Promise<Outcome<TeamConfig>> {
  const loaded = await loadConfig(scope.repoRoot);
  return loaded.ok ? { ok: true, value: loaded.config } : { ok: false, error: loaded.error };
}

/** The config, or the defaults when it is invalid (for reads that should still answer). */
export async function configOrDefaults(scope: McpScope): Promise<TeamConfig> {
  const loaded = await teamConfig(scope);
  return loaded.ok ? loaded.value : TeamConfigSchema.parse({});
}

/** The names mail and cron jobs may go to (teammates, `lead`, `user`). */
export async function roster(scope: McpScope): Promise<Outcome<string[]>> {
  const config = await teamConfig(scope);
  return config.ok ? { ok: true, value: rosterOf(config.value) } : config;
}

export async function mailboxFor(scope: McpScope): Promise<Outcome<MailboxStore>> {
  const names = await roster(scope);
  return names.ok ? { ok: true, value: new MailboxStore(scope.repoRoot, { roster: names.value }) } : names;
}

export async function cronFor(scope: McpScope): Promise<Outcome<CronStore>> {
  const names = await roster(scope);
  return names.ok ? { ok: true, value: new CronStore(scope.repoRoot, { roster: names.value }) } : names;
}

export const eventLog = (scope: McpScope): EventLog => EventLog.forRepo(scope.repoRoot);
