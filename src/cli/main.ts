#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { CliError } from './cli-error.js';
import { registerCronCommands } from './cron.js';
import { registerInitCommand } from './init.js';
import { registerMailCommands } from './mail.js';
import { exitQuietlyOnBrokenPipe } from './output.js';
import { registerTaskCommands } from './task.js';
import { registerValidateCommand } from './validate.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The commands that only read and write files; running one loads no daemon code. */
const FILE_COMMANDS = new Set(['init', 'task', 'send', 'inbox', 'cron', 'validate']);

/** The program with the file commands only (init, task, send, inbox, cron, validate). */
export function buildFilesProgram(): Command {
  const program = new Command('teamd')
    .description('run a team of LLM coding agents on a git repository, coordinating through plain files')
    .version(version)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`teamd: ${text}`) });
  registerInitCommand(program);
  registerTaskCommands(program);
  registerMailCommands(program);
  registerCronCommands(program);
  registerValidateCommand(program);
  return program;
}

/**
 * The `teamd` program with every command registered. The daemon's command
 * groups pull in the agent runtime, the model clients and the dashboard, so
 * they are imported here, on demand, not at the top of this file: that keeps
 * `teamd task ls` quick. Errors are not printed or exited on here: `runCli`
 * turns them into one `teamd: error: …` line and an exit code.
 */
export async function buildProgram(): Promise<Command> {
  const program = buildFilesProgram();

  // ── Registered by other parts of teamd (add their lines here) ─────────────
  // One agent, headless.
  const { registerAgentCommand } = await import('./agent.js');
  registerAgentCommand(program);
  // The team daemon and watching it.
  const { registerTeamCommands } = await import('./team.js');
  registerTeamCommands(program);
  const { registerStatusCommand } = await import('./status.js');
  registerStatusCommand(program);
  const { registerLogsCommand } = await import('./logs.js');
  registerLogsCommand(program);
  const { registerApprovalCommands } = await import('./approvals.js');
  registerApprovalCommands(program);
  const { registerWorktreeCommands } = await import('./worktrees.js');
  registerWorktreeCommands(program);
  const { registerTopCommand } = await import('./top.js');
  registerTopCommand(program);
  const { registerCostCommand } = await import('./cost.js');
  registerCostCommand(program);
  const { registerDoctorCommand } = await import('./doctor.js');
  registerDoctorCommand(program);
  const { registerResumeCommand } = await import('./resume.js');
  registerResumeCommand(program);
  (await import('./review.js')).registerReviewCommands(program);
  (await import('./gc.js')).registerGcCommand(program);
  // ───────────────────────────────────────────────────────────────────────────

  return program;
}

/** The first word that is not an option: the command about to run. */
const commandOf = (argv: readonly string[]): string | undefined => argv.slice(2).find((a) => !a.startsWith('-'));

/** Runs the CLI on `argv` (node-style: the first two entries are skipped) and returns the exit code. */
export async function runCli(argv: readonly string[] = process.argv): Promise<number> {
  const command = commandOf(argv);
  try {
    const program = command !== undefined && FILE_COMMANDS.has(command) ? buildFilesProgram() : await buildProgram();
    process.exitCode = undefined; // a previous in-process run's code is not this one's
    await program.parseAsync([...argv]);
    // An action may set the code it ends with (`teamd run`: 1 when a task failed, 130 when interrupted).
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode; // commander already printed it
    if (err instanceof CliError) {
      process.stderr.write(`teamd: error: ${err.message}\n`);
      return err.exitCode;
    }
    throw err;
  }
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  exitQuietlyOnBrokenPipe();
  process.exitCode = await runCli();
}
