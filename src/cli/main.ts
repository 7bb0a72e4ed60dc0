#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { CliError } from './cli-error.js';
import { exitWhenWritten, ONE_SHOT_COMMANDS } from './exit-when-done.js';
import { keepFetchParserInBaseline } from '../model/fetch-parser-tier.js';
import { rehearseFirstTurn } from '../model/turn-rehearsal.js';

/** For the code-cached bundle's launcher (src/cli/launch.ts): V8 flags back to their defaults before the cache is made. */
export { restoreParserFlags } from '../model/fetch-parser-tier.js';
export { runDepth } from './cache-depth.js';
import { exitQuietlyOnBrokenPipe } from './output.js';
import { terminalSafe, terminalSafeLine } from '../observe/terminal-safe.js';
import { keepYoungGenerationSmall } from '../dashboard/young-generation.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The commands that only read and write files; running one loads no daemon code. */
const FILE_COMMANDS = new Set(['init', 'task', 'send', 'inbox', 'cron', 'validate']);

/** The program with no command yet: its name, description, `--version` and error output. */
function bareProgram(): Command {
  return new Command('teamd')
    .description('run a team of LLM coding agents on a git repository, coordinating through plain files')
    .version(version)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`teamd: ${terminalSafe(text)}`) });
}

/** The program with the file commands only (init, task, send, inbox, cron, validate), imported on demand. */
export async function buildFilesProgram(): Promise<Command> {
  const program = bareProgram();
  (await import('./files-program.js')).registerFileCommands(program);
  return program;
}

type Register = (program: Command) => void;

/**
 * Each daemon command group, imported on demand: they pull in the agent
 * runtime, the model clients and the dashboard, so a run loads only the group
 * of the command it runs (`teamd agent` never loads ink). The keys are the
 * command names each group registers.
 */
const COMMAND_GROUPS: Record<string, () => Promise<Register>> = {
  agent: async () => (await import('./agent.js')).registerAgentCommand,
  team: async () => (await import('./team.js')).registerTeamCommands,
  status: async () => (await import('./status.js')).registerStatusCommand,
  logs: async () => (await import('./logs.js')).registerLogsCommand,
  approvals: async () => (await import('./approvals.js')).registerApprovalCommands,
  worktrees: async () => (await import('./worktrees.js')).registerWorktreeCommands,
  top: async () => (await import('./top.js')).registerTopCommand,
  cost: async () => (await import('./cost.js')).registerCostCommand,
  doctor: async () => (await import('./doctor.js')).registerDoctorCommand,
  resume: async () => (await import('./resume.js')).registerResumeCommand,
  review: async () => (await import('./review.js')).registerReviewCommands,
  gc: async () => (await import('./gc.js')).registerGcCommand,
  teammate: async () => (await import('./teammate-stdio.js')).registerTeammateCommand,
  web: async () => (await import('./web.js')).registerWebCommand,
  mcp: async () => (await import('./mcp.js')).registerMcpCommand,
};

/** Command name → its group, for the names a group registers under another name. */
const GROUP_OF: Record<string, string> = {
  start: 'team',
  stop: 'team',
  run: 'team',
  demo: 'team',
  approve: 'approvals',
  reject: 'approvals',
  clean: 'worktrees',
  'merge-queue': 'worktrees',
  accept: 'review',
};

/** The group that registers `command`, or undefined when it is not a daemon command. */
export function groupOf(command: string): string | undefined {
  if (Object.hasOwn(COMMAND_GROUPS, command)) return command;
  return GROUP_OF[command];
}

/**
 * The `teamd` program with every command registered (for help, and for a
 * word that is no command, so commander can say so), or, given a daemon
 * `command`, that command's group only (commander runs only the command
 * named, so the file commands would be loaded for nothing: their zod and
 * yaml cost `teamd status` tens of ms). Errors are not printed or exited on
 * here: `runCli` turns them into one `teamd: error: …` line and an exit code.
 */
export async function buildProgram(command?: string): Promise<Command> {
  const group = command === undefined ? undefined : groupOf(command);
  if (group !== undefined) {
    const program = bareProgram();
    (await COMMAND_GROUPS[group]!())(program);
    return program;
  }
  const program = await buildFilesProgram();
  const registers = await Promise.all(Object.keys(COMMAND_GROUPS).map((g) => COMMAND_GROUPS[g]!()));
  for (const register of registers) register(program);
  return program;
}

/** The first word that is not an option: the command about to run. */
const commandOf = (argv: readonly string[]): string | undefined => argv.slice(2).find((a) => !a.startsWith('-'));

/** `teamd --version` (no command, no help asked for): no command is needed at all. */
const versionOnly = (argv: readonly string[], command: string | undefined): boolean =>
  command === undefined &&
  (argv.includes('--version') || argv.includes('-V')) &&
  !argv.includes('--help') &&
  !argv.includes('-h');

/** The program `argv` needs: none of the commands for `--version`, the file commands only for a file command. */
async function programFor(argv: readonly string[], command: string | undefined): Promise<Command> {
  if (versionOnly(argv, command)) return bareProgram();
  if (command !== undefined && FILE_COMMANDS.has(command)) return buildFilesProgram();
  return buildProgram(command);
}

/** Runs the CLI on `argv` (node-style: the first two entries are skipped) and returns the exit code. */
export async function runCli(argv: readonly string[] = process.argv): Promise<number> {
  const command = commandOf(argv);
  try {
    const program = await programFor(argv, command);
    process.exitCode = undefined; // a previous in-process run's code is not this one's
    await program.parseAsync([...argv]);
    // An action may set the code it ends with (`teamd run`: 1 when a task failed, 130 when interrupted).
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode; // commander already printed it
    if (err instanceof CliError) {
      process.stderr.write(errorText(err));
      return err.exitCode;
    }
    throw err;
  }
}

/** `teamd: error: <message>` on one line, then the error's detail; nothing of either raw (it may quote the repository). */
function errorText(err: CliError): string {
  const detail = err.detail === undefined ? '' : `${terminalSafe(err.detail)}\n`;
  return `teamd: error: ${terminalSafeLine(err.message)}\n${detail}`;
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

/**
 * The process's run of the CLI: exit on `beforeExit` and, for a one-shot
 * command, as soon as its output is written. No top-level await, so the
 * bundle can be CommonJS (scripts/bundle-cli.mjs, loaded with a code cache).
 */
export async function main(): Promise<void> {
  exitQuietlyOnBrokenPipe();
  // Once nothing is left to do, exit at once: a natural exit first tears the
  // V8 heap down page by page (hundreds of munmaps after a run, tens of ms on
  // a busy machine), which `process.exit` skips. `beforeExit` comes only when
  // the event loop is empty, so no write or child is cut short.
  process.once('beforeExit', (code) => process.exit(code));
  const command = commandOf(process.argv);
  const oneShot = command !== undefined && ONE_SHOT_COMMANDS.has(command);
  if (oneShot) keepFetchParserInBaseline(); // no TurboFan job on fetch's parser to compete with the turns and hold the exit
  if (oneShot && process.env.TEAMD_NO_TURN_REHEARSAL !== '1') rehearseFirstTurn(); // the first turn's path warmed while the model thinks
  // `top`'s heap limits before its modules load: loading them alone grew the young generation to 16 MB (young-generation.ts).
  if (command === 'top') keepYoungGenerationSmall();
  process.exitCode = await runCli();
  // a one-shot command is done when its action returns: no wait for V8's background work (exit-when-done.ts)
  if (oneShot) await exitWhenWritten(process.exitCode);
}

if (isEntryPoint()) void main();
