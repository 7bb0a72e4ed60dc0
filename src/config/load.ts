import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../store/atomic.js';
import { parseJson } from '../store/json-file.js';
import { FILE_LIMITS, readTeamFile } from '../store/team-file.js';
import { TeamConfigSchema, type TeamConfig } from './schema.js';

export const configPath = (repoRoot: string): string => join(repoRoot, '.team', 'config.json');
export const configSchemaPath = (repoRoot: string): string => join(repoRoot, '.team', 'config.schema.json');

export type ConfigLoad = { ok: true; config: TeamConfig } | { ok: false; error: string };

/**
 * Reads `.team/config.json` (defaults when missing); errors name the file and
 * the field. Only a regular file is read (a link, FIFO or device is refused
 * unread), at most `FILE_LIMITS.config` bytes, nested at most `MAX_JSON_DEPTH`.
 */
export async function loadConfig(repoRoot: string): Promise<ConfigLoad> {
  const file = configPath(repoRoot);
  const read = await readTeamFile(file, join('.team', 'config.json'), FILE_LIMITS.config);
  if (read.kind === 'missing') return { ok: true, config: TeamConfigSchema.parse({}) };
  const json = read.kind === 'text' ? parseJson(read.text, file) : read;
  if (json.kind !== 'ok') return { ok: false, error: `${file}: ${json.kind === 'invalid' ? json.problem.message : 'missing'}` };
  const raw = json.value;
  const parsed = TeamConfigSchema.safeParse(raw);
  if (parsed.success) return { ok: true, config: parsed.data };
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, error: `${file}: ${issues.join('; ')}` };
}

/** The names mail may be sent to: every teammate, `lead`, and `user` (a person at the CLI). */
export const rosterOf = (config: TeamConfig): string[] => [
  'lead',
  'user',
  ...config.teammates.map((t) => t.name),
];

/** The budgets `teamd init` writes: $20 for everything the team spends in the repository, $2 for one task's run. */
export const STARTER_BUDGETS = { teamUsd: 20, taskUsd: 2 } as const;

/** Writes a starter config and its JSON Schema (for editors); never overwrites a config. */
export async function writeDefaultConfig(repoRoot: string): Promise<boolean> {
  await writeFileAtomic(
    configSchemaPath(repoRoot),
    JSON.stringify(z.toJSONSchema(TeamConfigSchema, { io: 'input' }), null, 2) + '\n',
  );
  if (existsSync(configPath(repoRoot))) return false;
  const starter = {
    $schema: './config.schema.json',
    model: 'claude-sonnet-5-5',
    teammates: [{ name: 'worker-1' }, { name: 'worker-2' }],
    worktrees: { mode: 'per-task' },
    // Budgets on by default (docs/MODELS.md, "Budgets"): the team pauses at the first, a task's run ends at the second.
    maxBudgetUsd: STARTER_BUDGETS.teamUsd,
    taskBudgetUsd: STARTER_BUDGETS.taskUsd,
  };
  await writeFileAtomic(configPath(repoRoot), JSON.stringify(starter, null, 2) + '\n');
  return true;
}
