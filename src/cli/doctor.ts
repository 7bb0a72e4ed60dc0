/**
 * `teamd doctor`: every preflight check of `start` and `run`, and the
 * machine's (Node, git, inotify, disk, hooks, tmux), as a table. Exit 1 when
 * any check fails; warnings do not change the exit code.
 */
import type { Command } from 'commander';
import { printJson, printLine, printTable } from './output.js';
import { checkClaudeCode } from './preflight/claude-code.js';
import { preflight } from './preflight/index.js';
import { modelSpecs } from './preflight/model.js';
import { modelTableChecks } from './preflight/model-table.js';
import {
  checkDisk,
  checkGitVersion,
  checkHooks,
  checkInotify,
  checkNode,
  checkTmux,
} from './preflight/system.js';
import type { Check } from './preflight/types.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

const MARK = { ok: 'ok', warn: 'WARN', fail: 'FAIL' } as const;

export function registerDoctorCommand(program: Command): void {
  addDirOption(
    program
      .command('doctor')
      .description('check the model, config, git repository and machine before running a team'),
  )
    .option('--model <model>', 'check this model instead of the configured ones')
    .option('--json', 'print JSON')
    .action(doctor);
}

async function doctor(options: DirOption & { model?: string; json?: boolean }): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  const checks = await doctorChecks(repoRoot, options.model);
  if (options.json) printJson(checks);
  else printChecks(checks);
  if (checks.some((c) => c.status === 'fail')) process.exitCode = 1;
}

export async function doctorChecks(repoRoot: string, model?: string): Promise<Check[]> {
  const team = await preflight({ repoRoot, model });
  const machine = [
    checkNode(),
    await checkGitVersion(),
    checkInotify(),
    await checkDisk(repoRoot),
    await checkTmux(),
  ];
  const hooks = team.config ? [await checkHooks(repoRoot, team.config)] : [];
  const claudeCode = team.config ? await checkClaudeCode(team.config) : [];
  const table = team.config ? modelTableChecks(team.config, model ? [model] : modelSpecs(team.config, false)) : [];
  return [...team.checks, ...table, ...hooks, ...claudeCode, ...machine];
}

function printChecks(checks: Check[]): void {
  printTable(
    ['CHECK', 'RESULT', 'DETAIL'],
    checks.map((c) => [c.name, MARK[c.status], c.detail]),
  );
  const fixes = checks.filter((c) => c.fix && c.status !== 'ok');
  if (fixes.length) printLine('');
  for (const c of fixes) printLine(`${MARK[c.status]} ${c.name}: ${c.fix}`);
}
