/**
 * `teamd teammate --stdio`: one teammate on this process's stdin and stdout,
 * for a lead that runs it out of its own process (the process, sandbox and
 * ssh hosts; docs/HOSTS.md). Not a command for people: the lead starts it.
 */
import type { Command } from 'commander';
import { runStdioTeammate } from '../teammate/hosts/stdio-main.js';
import { fail } from './cli-error.js';

export function registerTeammateCommand(program: Command): void {
  program
    .command('teammate')
    .description('run one teammate speaking the lead protocol as JSON lines (started by the lead for out-of-process hosts)')
    .option('--stdio', 'the protocol on stdin/stdout (the only transport)')
    .action(async (options: { stdio?: boolean }) => {
      if (!options.stdio) fail('teamd teammate: --stdio is required (the lead starts this command; see docs/HOSTS.md)');
      runStdioTeammate();
      await new Promise<never>(() => undefined); // the teammate ends this process itself
    });
}
