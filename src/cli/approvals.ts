import type { Command } from 'commander';
import type { TeamEvent } from '../observe/types.js';
import { EventLog } from '../observe/event-log.js';
import { MailboxStore } from '../store/mailbox/index.js';
import { answerRequest, listRequests, type Answer } from '../teammate/requests.js';
import { fail } from './cli-error.js';
import { rejectReviewCommand } from './review.js';
import { showApproval } from './approval-show.js';
import { oneLine, printJson, printLine, printTable } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

export function registerApprovalCommands(program: Command): void {
  const approvals = addDirOption(
    program
      .command('approvals')
      .description(
        "teammates' permission and plan requests waiting for an answer, one line each (`approvals show <id>`: all of one)",
      ),
  )
    .option('--all', 'also answered and expired ones')
    .option('--json', 'print JSON')
    .action(list);
  addDirOption(
    approvals
      .command('show <request_id>')
      .description('the whole request, every line of it (escaped), to read before answering it'),
  )
    .option('--json', 'print JSON')
    // commander gives `--json` and `--dir` to `approvals` (which has them too) wherever they stand: take both.
    .action((id: string, _o: unknown, command: Command) => showApproval(id, command.optsWithGlobals()));
  addDirOption(
    program.command('approve <request_id>').description('approve a pending permission or plan request'),
  )
    .option('--reason <text>', 'a note for the teammate')
    .action((id: string, o: DirOption & { reason?: string }) => answer(id, true, o));
  addDirOption(
    program
      .command('reject <id>')
      .description('reject a pending request, or a task in review; the reason goes back to the teammate'),
  )
    .option('--reason <text>', 'why (the teammate revises with it)')
    .action(async (id: string, o: DirOption & { reason?: string }) => {
      if (!(await rejectReviewCommand(id, o))) await answer(id, false, o);
    });
}

function list(options: DirOption & { all?: boolean; json?: boolean }): void {
  const requests = listRequests(resolveRepoDir(options), options.all ? undefined : 'pending');
  if (options.json) return printJson(requests);
  if (requests.length === 0) return printLine('nothing is waiting for an answer');
  printTable(
    ['REQUEST', 'AGENT', 'KIND', 'TASK', 'STATUS', 'WHAT'],
    requests.map((r) => [r.id, r.agent, r.kind, r.task ?? '-', r.status, oneLine(r.summary, 60)]),
  );
}

async function answer(id: string, approve: boolean, options: DirOption & { reason?: string }): Promise<void> {
  const r = await answerApproval(resolveRepoDir(options), id, { approve, by: 'user', reason: options.reason });
  if (!r.ok) fail(r.error);
  printLine(`${approve ? 'approved' : 'rejected'} ${id} (${r.request.agent})`);
}

/**
 * Answers a pending permission or plan request and logs `approval_answered`:
 * what `teamd approve` / `teamd reject` do, for `teamd mcp` too.
 */
export async function answerApproval(
  repoRoot: string,
  id: string,
  verdict: { approve: boolean; by: string; reason?: string },
): Promise<Answer> {
  const r = await answerRequest(repoRoot, new MailboxStore(repoRoot), id, verdict);
  if (!r.ok) return r;
  const event: TeamEvent = { type: 'approval_answered', requestId: id, agent: r.request.agent, approved: verdict.approve, by: verdict.by };
  EventLog.forRepo(repoRoot).append(event);
  return r;
}
