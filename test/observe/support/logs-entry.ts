/** `teamd logs` alone, as main.ts runs it, for tests that need a real process (following, SIGINT). */
import { Command } from 'commander';
import { registerLogsCommand } from '../../../src/cli/logs.js';

const program = new Command('teamd').exitOverride();
registerLogsCommand(program);
await program.parseAsync(process.argv);
