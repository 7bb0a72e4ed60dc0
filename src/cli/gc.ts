/**
 * `teamd gc`: what the lead does every `history.gcEveryMs`, now: finished
 * tasks to `.tasks/archive/`, the logs rotated and compressed, old segments
 * deleted, merged task branches pruned. Prints everything it removed or
 * moved; `--dry-run` prints what it would do and changes nothing.
 */
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { collectGarbage } from '../history/gc.js';
import { gcLines } from '../history/report.js';
import { runningLeadPid } from '../lead/pid-lock.js';
import { fail } from './cli-error.js';
import { printJson, printLine } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

export function registerGcCommand(program: Command): void {
  addDirOption(
    program
      .command('gc')
      .description(
        'archive finished tasks, rotate and compress logs, prune merged task branches; prints what it removed',
      ),
  )
    .option('--dry-run', 'say what would be removed or moved, change nothing')
    .option('--json', 'print JSON')
    .action(gc);
}

async function gc(options: DirOption & { dryRun?: boolean; json?: boolean }): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) fail(loaded.error);
  const report = await collectGarbage(repoRoot, loaded.config, {
    dryRun: options.dryRun,
    leadRunning: runningLeadPid(repoRoot) !== null,
  });
  if (options.json) return printJson(report);
  for (const line of gcLines(report)) printLine(line);
}
