/**
 * `teamd resume`: ends a pause (a refused key fixed, a budget raised, an
 * outage over sooner than the lead's next try). It removes
 * `.team/state/paused.json`; the paused lead polls for it and starts its
 * teammates again (see lead/pause.ts). A budget pause ends only once the
 * budget in `.team/config.json` is above what the team spent: both this
 * command and the lead read it again.
 */
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { clearPause, readPause, type PauseState } from '../lead/pause-file.js';
import { runningLeadPid } from '../lead/pid-lock.js';
import { budgetMessage, budgetState } from '../observe/budget.js';
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

/** Why a budget pause cannot end yet (the budget read again is still reached), or null. */
async function stillOverBudget(repoRoot: string, paused: PauseState): Promise<string | null> {
  if (paused.kind !== 'budget') return null;
  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) return `the budget cannot be read: ${loaded.error}`;
  const team = (await budgetState(repoRoot, loaded.config)).team;
  return team.over ? `the team budget is still reached: ${budgetMessage(team)}` : null;
}

async function resume(options: DirOption): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  const pid = runningLeadPid(repoRoot);
  const paused = readPause(repoRoot);
  if (!pid) {
    if (paused) clearPause(repoRoot);
    fail(`teamd is not running in ${repoRoot}; start it with \`teamd start\` (it checks the model first)`);
  }
  if (!paused) return printLine('the team is not paused');
  const still = await stillOverBudget(repoRoot, paused);
  if (still) fail(`${still}; raise maxBudgetUsd in .team/config.json, then run \`teamd resume\` again`);
  clearPause(repoRoot);
  printLine(
    `resuming (was paused for ${paused.kind}: ${paused.reason}); the lead starts its teammates within a second`,
  );
}
