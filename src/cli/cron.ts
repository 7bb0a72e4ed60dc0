import type { Command } from 'commander';
import { nextFireAt } from '../store/cron/expression.js';
import { CronStore } from '../store/cron/store.js';
import { formatProblem } from '../store/problems.js';
import type { CronJob } from '../store/types.js';
import { CatchUpSchema } from '../store/types.js';
import { fail } from './cli-error.js';
import { oneLine, printJson, printLine, printTable, printWarning } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';
import { rosterFor } from './team-config.js';

interface AddOptions extends DirOption {
  to: string;
  once?: boolean;
  catchUp: string;
  tz?: string;
  id?: string;
}
interface ListOptions extends DirOption {
  json?: boolean;
}

export function registerCronCommands(program: Command): void {
  const cron = program.command('cron').description('scheduled prompts in .cron/');
  addDirOption(
    cron.command('add <expr> <prompt>').description('schedule a prompt (5 or 6 cron fields); prints its id'),
  )
    .option('--to <name>', 'a teammate, lead, or any (the first idle teammate)', 'any')
    .option('--once', 'fire once, then stop')
    .option(
      '--catch-up <mode>',
      'a fire missed while the daemon was down: once (run it on start) or skip',
      'skip',
    )
    .option('--tz <zone>', 'an IANA time zone, e.g. Europe/Paris (default: the daemon’s)')
    .option('--id <id>', 'the job id (default: a generated one)')
    .action(addJob);
  addDirOption(cron.command('ls').description('list scheduled prompts with their next fire time'))
    .option('--json', 'print JSON')
    .action(listJobs);
  addDirOption(cron.command('rm <id>').description('remove a scheduled prompt')).action(removeJob);
}

async function addJob(expr: string, prompt: string, options: AddOptions): Promise<void> {
  const repo = resolveRepoDir(options);
  const catchUp = CatchUpSchema.safeParse(options.catchUp);
  if (!catchUp.success) fail(`--catch-up: must be once or skip, got "${options.catchUp}"`);
  const store = new CronStore(repo, { roster: await rosterFor(repo) });
  const added = await store.add({
    cron: expr,
    prompt,
    to: options.to,
    recurring: !options.once,
    catchUp: catchUp.data,
    timezone: options.tz,
    id: options.id,
  });
  if (!added.ok) fail(added.error);
  printLine(added.value.id);
}

async function listJobs(options: ListOptions): Promise<void> {
  const { jobs, problems } = await new CronStore(resolveRepoDir(options)).list();
  for (const problem of problems) printWarning(formatProblem(problem));
  const now = new Date();
  const rows = jobs.map((job) => ({
    ...job,
    nextFireAt: job.done ? null : (nextFireAt(job, now)?.toISOString() ?? null),
  }));
  if (options.json) return printJson(rows);
  if (!rows.length) return printLine('no cron jobs');
  printTable(
    ['ID', 'SCHEDULE', 'TZ', 'TO', 'NEXT', 'LAST FIRED', 'PROMPT'],
    rows.map((j) => [
      j.id,
      scheduleOf(j),
      j.timezone ?? '-',
      j.to,
      j.nextFireAt ?? '-',
      j.lastFired ?? '-',
      oneLine(j.prompt, 48),
    ]),
  );
}

const scheduleOf = (job: CronJob): string => (job.recurring ? job.cron : `${job.cron} (once)`);

async function removeJob(id: string, options: DirOption): Promise<void> {
  const removed = await new CronStore(resolveRepoDir(options)).remove(id);
  if (!removed.ok) fail(removed.error);
  printLine(`removed ${id}`);
}
