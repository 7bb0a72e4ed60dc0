/**
 * `teamd resume`: ends a pause (a refused key fixed, a budget raised, an
 * outage over sooner than the lead's next try). It removes
 * `.team/state/paused.json`; the paused lead polls for it and starts its
 * teammates again (see lead/pause.ts).
 */
import type { Command } from 'commander';
import { clearPause, readPause } from '../lead/pause-file.js';
import { runningLeadPid } from '../lead/pid-lock.js';
import { fail } from './cli-error.js';
import { printLine } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

export function registerResumeCommand(program: Command): void {
  addDirOption(
    program
      .command('resume')
      .description('resume a paused team (after an auth error, an outage or a spent budget)'),
  ).action(resume);
}

function resume(options: DirOption): void {
  const repoRoot = resolveRepoDir(options);
  const pid = runningLeadPid(repoRoot);
  const paused = readPause(repoRoot);
  if (!pid) {
    if (paused) clearPause(repoRoot);
    fail(`teamd is not running in ${repoRoot}; start it with \`teamd start\` (it checks the model first)`);
  }
  if (!paused) return printLine('the team is not paused');
  clearPause(repoRoot);
  printLine(
    `resuming (was paused for ${paused.kind}: ${paused.reason}); the lead starts its teammates within a second`,
  );
}
