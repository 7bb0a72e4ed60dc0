/**
 * The daemon's commands: `start`, `stop`, `run`, `demo`. `start` without
 * `--foreground` starts the lead in the background and returns once it is up.
 */
import { spawn } from 'node:child_process';
import { openSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { runDemo } from '../demo/demo.js';
import { Lead } from '../lead/lead.js';
import { isAlive, runningLeadPid } from '../lead/pid-lock.js';
import { MailboxStore } from '../store/mailbox/index.js';
import { shutdownRequestMessage } from '../teammate/protocol.js';
import { CHECKED_ENV, checkBeforeWork } from './before-work.js';
import { fail } from './cli-error.js';
import { printLine } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';
import { run } from './run-goal.js';
import { rosterFor } from './team-config.js';
import { hostKindOf, printEvent, teammatesOf, untilSignal, type StartOptions } from './team-shared.js';

export function registerTeamCommands(program: Command): void {
  addDirOption(
    program
      .command('start')
      .description('start the team daemon (the lead and its teammates) in this repository'),
  )
    .option('--foreground', 'run in this terminal and print progress (default: in the background)')
    .option('--teammates <n>', 'how many teammates (default: as configured)')
    .option('--model <model>', 'model for every agent: a Claude model name or scripted:<path>')
    .option('--record <path>', "save the model's answers as a replayable script")
    .option('--host <kind>', 'where every teammate runs: thread (default), process, sandbox or ssh (see docs/HOSTS.md)')
    .action(start);
  addDirOption(
    program
      .command('stop [teammate]')
      .description('stop the daemon gracefully, or ask one teammate to shut down'),
  )
    .option('--reason <text>', 'why (sent with a teammate shutdown request)')
    .action(stop);
  addDirOption(
    program
      .command('run <goal>')
      .description("let the lead plan a goal into tasks, run the team until they're done, print a summary"),
  )
    .option('--review-plan', 'show the plan and wait for your approval before any teammate starts (needs a terminal)')
    .option('--teammates <n>', 'how many teammates')
    .option('--model <model>', 'model for every agent')
    .option('--record <path>', "save the model's answers as a replayable script")
    .action(run);
  program
    .command('demo')
    .description(
      'run a team on a small example repository (offline on the scripted model unless ANTHROPIC_API_KEY is set)',
    )
    .option('--dir <dir>', 'where to create the example repository (default: a new temp folder)')
    .option('--model <model>', 'a Claude model name or scripted:<path>')
    .option('--teammates <n>', 'how many teammates (default 3)')
    .option('--record <path>', "save the model's answers as a replayable script")
    .option('--host <kind>', 'where the teammates run: thread (default), process or sandbox (see docs/HOSTS.md)')
    .action(demo);
}

async function start(options: StartOptions): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  const running = runningLeadPid(repoRoot);
  if (running) fail(`teamd is already running in ${repoRoot} (pid ${running})`);
  await checkBeforeWork(repoRoot, options, false);
  if (!options.foreground) return startInBackground(repoRoot, options);
  const began = Date.now();
  const lead = await Lead.start({
    repoRoot,
    model: options.model,
    teammates: teammatesOf(options.teammates),
    record: options.record,
    host: hostKindOf(options.host),
    onEvent: printEvent(began),
  });
  if (!lead.ok) fail(lead.error);
  await untilSignal();
  await lead.value.stop('signal');
}

async function startInBackground(repoRoot: string, options: StartOptions): Promise<void> {
  const stateDir = join(repoRoot, '.team', 'state');
  mkdirSync(stateDir, { recursive: true });
  const outFile = join(stateDir, 'daemon.out');
  const out = openSync(outFile, 'a');
  const offset = statSync(outFile).size;
  const args = [...process.execArgv, process.argv[1]!, 'start', '--foreground', '--dir', repoRoot];
  if (options.teammates) args.push('--teammates', options.teammates);
  if (options.model) args.push('--model', options.model);
  if (options.record) args.push('--record', options.record);
  if (options.host) args.push('--host', options.host);
  const env = { ...process.env, [CHECKED_ENV]: '1' };
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', out, out], env });
  child.unref();
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  for (let waited = 0; waited < 15_000; waited += 100) {
    if (runningLeadPid(repoRoot) === child.pid) {
      printLine(`teamd started in ${repoRoot} (pid ${child.pid}); log: .team/state/daemon.out`);
      return;
    }
    const code = await Promise.race([exited, new Promise<'wait'>((r) => setTimeout(() => r('wait'), 100))]);
    if (code !== 'wait')
      fail(`the daemon exited at start (code ${code}):`, `${tailOf(outFile, offset)}\n(all of it in ${outFile})`);
  }
  fail(`the daemon did not come up in 15 s; see ${join(stateDir, 'daemon.out')}`);
}

async function stop(teammate: string | undefined, options: DirOption & { reason?: string }): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  if (teammate) return stopTeammate(repoRoot, teammate, options.reason ?? 'requested by a person');
  const pid = runningLeadPid(repoRoot);
  if (!pid) fail(`teamd is not running in ${repoRoot}`);
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 60_000 && isAlive(pid); waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  if (isAlive(pid)) fail(`the daemon (pid ${pid}) is still stopping after 60 s`);
  printLine(`teamd stopped (pid ${pid})`);
}

async function stopTeammate(repoRoot: string, name: string, reason: string): Promise<void> {
  const mailbox = new MailboxStore(repoRoot, { roster: await rosterFor(repoRoot) });
  const request = shutdownRequestMessage('user', name, reason);
  const sent = await mailbox.send(request);
  if (!sent.ok) fail(sent.error);
  printLine(`asked ${name} to shut down (request ${request.metadata.request_id}); its answer arrives in: teamd inbox user`);
}

async function demo(options: { dir?: string; model?: string; teammates?: string; record?: string; host?: string }): Promise<void> {
  const result = await runDemo({
    dir: options.dir,
    model: options.model,
    teammates: teammatesOf(options.teammates),
    record: options.record === undefined ? undefined : resolve(options.record),
    host: hostKindOf(options.host),
    out: printLine,
  });
  if (!result.ok) fail(result.error);
  if (result.summary.tasks.completed !== Object.values(result.summary.tasks).reduce((a, b) => a + b, 0))
    process.exitCode = 1;
}

/** What the daemon printed since `offset` (its last lines): why it exited, said by the command itself. */
function tailOf(file: string, offset: number): string {
  const text = readFileSync(file).subarray(offset).toString('utf8').trimEnd();
  return text.split('\n').slice(-12).map((l) => `  ${l}`).join('\n') || '  (it printed nothing)';
}
