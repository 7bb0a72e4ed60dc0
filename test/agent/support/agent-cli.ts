/**
 * A test-only `teamd` with just the `agent` command (the real entry,
 * src/cli/main.ts, wires the same `registerAgentCommand`).
 */
import { Command } from 'commander';
import { registerAgentCommand } from '../../../src/cli/agent.js';
import { CliError } from '../../../src/cli/cli-error.js';

const program = new Command('teamd');
registerAgentCommand(program);
try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`teamd: error: ${(error as Error).message}\n`);
  process.exitCode = error instanceof CliError ? error.exitCode : 1;
}
