import type { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../config/load.js';
import { readTeamStatus } from '../observe/status.js';
import { fail } from './cli-error.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';
import { printStatus } from './status.js';

export interface TopCommandOptions extends DirOption {
  refresh?: string;
}

const RefreshSchema = z.coerce.number().int().min(100).max(3_600_000);

export function registerTopCommand(program: Command): void {
  addDirOption(
    program
      .command('top')
      .description(
        'a live dashboard of the team: teammates, task graph, events, mail, cron, merges, approvals (plain status when not a terminal)',
      ),
  )
    .option('--refresh <ms>', 'refresh at least this often, besides file changes', '2000')
    .action((o: TopCommandOptions) => top(o));
}

/** `teamd top`: the ink dashboard on a terminal, `teamd status` output anywhere else (pipes, CI logs). */
export async function top(
  options: TopCommandOptions,
  stdout: NodeJS.WriteStream = process.stdout,
): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) fail(loaded.error);
  const refresh = RefreshSchema.safeParse(options.refresh ?? '2000');
  if (!refresh.success)
    fail(`--refresh: must be a whole number of milliseconds from 100, got "${options.refresh}"`);
  if (!stdout.isTTY) return printStatus(await readTeamStatus(repoRoot, loaded.config));
  // React's production build unless asked otherwise: the development one diffs every
  // component's props for its performance tracks at each render (~30% of an idle
  // `top`'s CPU with 10,000 tasks, and the garbage of it; issue 24). React reads
  // NODE_ENV when first loaded, hence the import here.
  process.env.NODE_ENV ??= 'production';
  const { runTop } = await import('../dashboard/run-top.js');
  await runTop({ repoRoot, config: loaded.config, stdout, refreshMs: refresh.data });
}
