import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { checkTeamFiles } from '../store/check.js';
import { checkClaudeFiles } from './validate-claude.js';
import { stuckLocks } from '../store/lock-holder.js';
import { formatProblem } from '../store/problems.js';
import type { FileProblem } from '../store/types.js';
import { CliError } from './cli-error.js';
import { configProblem } from './config-problem.js';
import { printJson, printLine, printRecordLine } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

interface ValidateOptions extends DirOption {
  json?: boolean;
}

export function registerValidateCommand(program: Command): void {
  addDirOption(
    program
      .command('validate')
      .description(
        'check every task, inbox, cron job, the config and the Claude Code files (.claude/settings*.json, .claude/agents, .mcp.json); print each problem with its file; exit 1 if any',
      ),
  )
    .option('--json', 'print JSON')
    .action(validate);
}

async function validate(options: ValidateOptions): Promise<void> {
  const repo = resolveRepoDir(options);
  const report = await checkTeamFiles(repo);
  const config = await loadConfig(repo);
  const problems: FileProblem[] = config.ok
    ? report.problems
    : [configProblem(repo, config.error), ...report.problems];
  // A lock refreshed in the future by a live (or unknown) holder: writers of that file wait until then.
  problems.push(...stuckLocks(repo).map(({ file, message }) => ({ file, message })));
  const claude = await checkClaudeFiles(repo);
  problems.push(...claude.problems);
  const { warnings } = claude;
  if (options.json) printJson({ ok: problems.length === 0, problems, warnings, counts: report.counts });
  else {
    for (const problem of problems) printRecordLine(formatProblem(problem));
    for (const warning of warnings) printRecordLine(`warning: ${formatProblem(warning)}`);
  }
  if (problems.length) throw new CliError(`${problems.length} problem(s) found`);
  const { tasks, inboxes, cronJobs, archivedTasks } = report.counts;
  const archived = archivedTasks ? ` (and ${archivedTasks} archived)` : '';
  if (!options.json)
    printLine(`ok: ${tasks} task(s)${archived}, ${inboxes} inbox(es), ${cronJobs} cron job(s), config valid`);
}
