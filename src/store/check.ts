import { CronStore } from './cron/store.js';
import { MailboxStore } from './mailbox/store.js';
import { TaskStore } from './tasks/store.js';
import { teamFolderProblems } from './team-folders.js';
import type { FileProblem } from './types.js';

/** What `checkTeamFiles` found. */
export interface TeamFilesReport {
  problems: FileProblem[];
  /** `archivedTasks`: the files of `.tasks/archive/` (finished tasks off the live board), also checked. */
  counts: { tasks: number; inboxes: number; cronJobs: number; archivedTasks: number };
}

/**
 * Checks every file in `.tasks/`, `.mailboxes/` and `.cron/` without changing
 * any (dropped task files are not normalised): schemas, ids, dependency cycles
 * and `blockedBy` ids naming no task; and that the team folders are real
 * folders (a folder that is a link is reported, and not read).
 */
export async function checkTeamFiles(repoRoot: string): Promise<TeamFilesReport> {
  const tasks = await TaskStore.open(repoRoot, { normalise: false });
  const mailboxes = new MailboxStore(repoRoot);
  const cron = await new CronStore(repoRoot).list();
  const archived = await tasks.archive.all();
  return {
    problems: [
      ...teamFolderProblems(repoRoot),
      ...tasks.problems(),
      ...archived.problems,
      ...(await mailboxes.problems()),
      ...cron.problems,
    ],
    counts: {
      archivedTasks: archived.tasks.length,
      tasks: tasks.list().length,
      inboxes: (await mailboxes.agents()).length,
      cronJobs: cron.jobs.length,
    },
  };
}
