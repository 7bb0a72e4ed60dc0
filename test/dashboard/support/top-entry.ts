/**
 * The commands of this area that src/cli/main.ts does not register yet (`top`,
 * `cost`), in a program built as main.ts builds it: for tests that run them
 * as real processes. Errors end as one `teamd: error: …` line and an exit code.
 */
import { Command } from 'commander';
import { CliError } from '../../../src/cli/cli-error.js';
import { registerCostCommand } from '../../../src/cli/cost.js';
import { registerTopCommand } from '../../../src/cli/top.js';

const program = new Command('teamd').exitOverride();
registerTopCommand(program);
registerCostCommand(program);
try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CliError) {
    process.stderr.write(`teamd: error: ${err.message}\n`);
    process.exitCode = err.exitCode;
  } else throw err;
}
