import { loadConfig, rosterOf } from '../config/load.js';
import { fail } from './cli-error.js';

/** The names mail and cron jobs may go to, from `.team/config.json`; an invalid config is an error. */
export async function rosterFor(repo: string): Promise<string[]> {
  const loaded = await loadConfig(repo);
  return loaded.ok ? rosterOf(loaded.config) : fail(loaded.error);
}
