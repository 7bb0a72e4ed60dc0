/**
 * `teamd status` with a lead running, in the soak's shape (issue 24): weeks
 * of history (history.ts: 1 M events, 100 k archived tasks and messages),
 * 20,000 finished sessions (sessions.ts), 4 teammates, a live lead (probe.ts,
 * scripted model) that runs `--live-tasks` tasks and `--live-messages`
 * messages and then sits idle; `status` is timed while it runs and again
 * after it stopped, interleaved with `teamd --version` (and with a second
 * build, `--before <dir>`: a folder with `dist/cli/main.js`, e.g. a copy of
 * main's dist/ with node_modules linked beside it). Wall time and user + system
 * CPU (GNU time) per run; medians and ranges, with `uptime`.
 *
 *   node --import tsx bench/soak/status-live.ts [--small] [--rounds N] [--live-tasks N] [--live-messages N]
 *        [--before <dir>] [--repo <dir> (reuse; not removed)] [--keep] [--wait-ms N (idle before timing)]
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { medianOf } from '../support/stats.js';
import { makeBenchRepo, oneTurnScript, teammates } from '../support/team.js';
import { writeHistory } from './history.js';
import { writeSessions } from './sessions.js';

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const small = argv.includes('--small');
const ROUNDS = Number(opt('--rounds') ?? (small ? 3 : 15));
const LIVE_TASKS = Number(opt('--live-tasks') ?? (small ? 50 : 1_200));
const LIVE_MESSAGES = Number(opt('--live-messages') ?? (small ? 50 : 2_000));
const WAIT_MS = Number(opt('--wait-ms') ?? 3_000);
const AFTER = fileURLToPath(new URL('../../', import.meta.url));
const PROBE = fileURLToPath(new URL('probe.ts', import.meta.url));

async function buildRepo(): Promise<string> {
  const repo = await makeBenchRepo(oneTurnScript(), {
    teammates: teammates(4),
    history: { rotateBytes: 2 ** 40, rotateAfterMs: 2 ** 40 },
  });
  await writeHistory(repo.dir, small
    ? { events: 2_000, cronFires: 20, tasks: 200, gcTasks: 0, messages: 200 }
    : { events: 1_000_000, cronFires: 10_000, tasks: 100_000, gcTasks: 0, messages: 100_000 });
  writeSessions(repo.dir, ['w1', 'w2', 'w3', 'w4'], small ? 50 : 5_000, new Date(Date.now() - 86_400_000));
  return repo.dir;
}

interface Run { wallMs: number; cpuMs: number }

/** One whole process under GNU time: its wall time here, its user + system CPU from time's last line. */
function timed(cmd: string[], cwd: string): Run {
  const began = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', ...cmd], { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wallMs = performance.now() - began;
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed: ${r.stderr}`);
  const [user, sys] = r.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wallMs, cpuMs: (user! + sys!) * 1000 };
}

const uptime = (): string => execFileSync('uptime', { encoding: 'utf8' }).trim().replace(/.*load average: /, 'load ');
const cli = (root: string): string[] => [process.execPath, join(root, 'dist', 'cli', 'main.js')];

/** A process's user + system CPU so far, in ms (clock ticks of /proc/<pid>/stat, 100 a second here). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `rounds` rounds of each command in turn (A B C A B C …), then a line per command (and the lead's CPU meanwhile). */
function timeInterleaved(phase: string, repo: string, commands: [string, string[]][], leadPid?: number, rounds = ROUNDS): void {
  const runs = new Map<string, Run[]>(commands.map(([name]) => [name, []]));
  const loadBefore = uptime();
  const [leadBefore, began] = [leadPid ? cpuOf(leadPid) : 0, performance.now()];
  for (let round = 0; round < rounds; round++)
    for (const [name, cmd] of commands) runs.get(name)!.push(timed(cmd, repo));
  const lead = leadPid ? `; the lead used ${((cpuOf(leadPid) - leadBefore) / (performance.now() - began) * 100).toFixed(1)}% of a core meanwhile` : '';
  console.log(`\n${phase} (${rounds} rounds; ${loadBefore} before, ${uptime()} after${lead})`);
  for (const [name, rs] of runs) console.log(`  ${name.padEnd(28)} ${summary(rs.map((r) => r.wallMs))} wall, ${summary(rs.map((r) => r.cpuMs))} CPU`);
}

const summary = (xs: number[]): string =>
  `${medianOf(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

function commandsFor(): [string, string[]][] {
  const before = opt('--before');
  const list: [string, string[]][] = [
    ['node -e 0', [process.execPath, '-e', '0']],
    ['teamd --version', [...cli(AFTER), '--version']],
    ['teamd status (this build)', [...cli(AFTER), 'status']],
  ];
  if (before) list.push(['teamd status (before)', [...cli(before), 'status']]);
  return list;
}

/** Starts the probe's lead and resolves once its live part is done and the team idle. */
async function startLead(repo: string): Promise<{ pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', PROBE, repo, String(LIVE_TASKS), String(LIVE_MESSAGES)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => child.once('close', r));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (l) => l.startsWith('{"phase":"idle"') && resolve());
    child.once('close', (code) => reject(new Error(`the probe exited (${code}) before the team was idle`)));
  });
  return { pid: child.pid!, stop: async () => { child.stdin.end(); await exited; } };
}

const given = opt('--repo');
const repo = given ?? (await buildRepo());
console.log(`repo ${repo}`);
try {
  const lead = await startLead(repo);
  timeInterleaved('lead running, just after its live part', repo, commandsFor(), lead.pid, Math.min(ROUNDS, 4));
  await new Promise((r) => setTimeout(r, WAIT_MS)); // the idle team settles (not a wait for an event: a bench's pause)
  timeInterleaved('lead running, team idle', repo, commandsFor(), lead.pid);
  await lead.stop();
  timeInterleaved('lead stopped', repo, commandsFor());
} finally {
  if (!given && !argv.includes('--keep')) rmSync(repo, { recursive: true, force: true });
}
