/**
 * Soak: a daemon whose cost stays flat as its history grows (issue 24).
 * Weeks of history are written straight as files (1 M events with 10 k cron
 * fires, 100 k finished tasks in the archive, 100 k delivered messages), a
 * live team (scripted model) starts on top, and the bench prints: `teamd
 * top`'s CPU and RSS over 30 s idle, `status` and `logs --events --tail 20`
 * times, the lead's cold start, its RSS before and after 10,000 tasks and
 * 100,000 messages, and the stall check's time per run. Floor of the CLI
 * times: `node -e 0` (what starting Node costs at all), measured in the same run.
 *
 *   npm run bench -- soak [--quick]
 *   node --import tsx bench/soak/index.ts [--live-tasks N] [--live-messages N]   (full history, a shorter live part)
 *   node --import tsx bench/soak/index.ts --tiny --src   (the test's run: tiny sizes, from src/, nothing written)
 */
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { benchArgs, sized } from '../support/args.js';
import { BenchReport, renderText } from '../support/report.js';
import { makeBenchRepo, oneTurnScript, teammates } from '../support/team.js';
import { writeHistory, type HistorySize } from './history.js';
import { cliCommand, fromSource } from './modules.js';
import { sampleTop } from './top-sample.js';

const args = benchArgs();
const tiny = process.argv.includes('--tiny');
const SIZE: HistorySize = tiny
  ? { events: 2_000, cronFires: 20, tasks: 200, gcTasks: 20, messages: 200 }
  : sized(
      args,
      { events: 1_000_000, cronFires: 10_000, tasks: 100_000, gcTasks: 1_000, messages: 100_000 },
      { events: 100_000, cronFires: 1_000, tasks: 10_000, gcTasks: 200, messages: 10_000 },
    );
const flag = (name: string): number | undefined => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : undefined;
};
const LIVE_SIZED = tiny
  ? { tasks: 20, messages: 20 }
  : sized(args, { tasks: 10_000, messages: 100_000 }, { tasks: 500, messages: 2_000 });
// --live-tasks / --live-messages: a shorter live part on the full history (a loaded machine runs ~10 tasks/s).
const LIVE = {
  tasks: flag('--live-tasks') ?? LIVE_SIZED.tasks,
  messages: flag('--live-messages') ?? LIVE_SIZED.messages,
};
// --probe-flags "<node/V8 flags>": the lead's process runs with them (e.g. "--no-sparkplug"), to compare.
const probeFlagsAt = process.argv.indexOf('--probe-flags');
const PROBE_FLAGS = probeFlagsAt >= 0 ? (process.argv[probeFlagsAt + 1] ?? '').split(' ').filter(Boolean) : [];
const TOP_WINDOW_MS = tiny ? 2_000 : sized(args, 30_000, 10_000);
const PROBE = fileURLToPath(new URL('probe.ts', import.meta.url));

const report = new BenchReport(
  'soak',
  'Soak: weeks of history, then a live team on top',
  args.quick || tiny,
  { ...SIZE, live: LIVE, topWindowMs: TOP_WINDOW_MS, fromSource, probeFlags: PROBE_FLAGS },
);
// No rotation during the bench: the readers must cope with the whole 1 M-event log on their own.
const repo = await makeBenchRepo(oneTurnScript(), {
  teammates: teammates(4),
  history: { rotateBytes: 2 ** 40, rotateAfterMs: 2 ** 40 },
});
const genBegan = performance.now();
await writeHistory(repo.dir, SIZE);
report.figure('writing the history', performance.now() - genBegan, 'ms');

interface ProbeReading {
  gcMs: number;
  gcArchived: number;
  coldStartMs: number;
  rssBefore: number;
  rssAfterTasks: number;
  rssAfterMessages: number;
  rssWarm: number | null;
  stallRuns: number[];
  /** The heaps of every isolate summed (main thread + teammate threads), after the GCs of the same readings. */
  heapsSumBefore?: number;
  heapsSumAfterTasks?: number;
  heapsSumAfterMessages?: number;
}

function timeRuns(argv: string[], runs: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    execFileSync(argv[0]!, argv.slice(1), { stdio: 'ignore', cwd: repo.dir });
    out.push(performance.now() - t);
  }
  return out;
}

let probe: ReturnType<typeof spawn> | undefined;
try {
  probe = spawn(
    process.execPath,
    [
      '--expose-gc',
      ...PROBE_FLAGS,
      '--import',
      'tsx',
      PROBE,
      repo.dir,
      String(LIVE.tasks),
      String(LIVE.messages),
      ...(fromSource ? ['--src'] : []),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const child = probe;
  const exited = new Promise((r) => child.once('close', r));
  const idleLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on(
      'line',
      (l) => l.startsWith('{"phase":"idle"') && resolve(l),
    );
    child.once('close', (code) => reject(new Error(`the probe exited (${code}) before the team was idle`)));
  });
  const lead = JSON.parse(idleLine) as ProbeReading;
  const cli = cliCommand();
  const runs = tiny ? 2 : 7;
  report.row('floor: node -e 0', timeRuns([process.execPath, '-e', '0'], runs), 'ms');
  report.row('floor: teamd --version (loading the CLI)', timeRuns([...cli, '--version'], runs), 'ms');
  const status = report.row('teamd status', timeRuns([...cli, 'status'], runs), 'ms', 'floor: teamd --version (loading the CLI)');
  const tail = report.row(
    'teamd logs --events --tail 20',
    timeRuns([...cli, 'logs', '--events', '--tail', '20'], runs),
    'ms',
    'floor: node -e 0',
  );
  const stall = report.row('stall check, per run', lead.stallRuns, 'ms');
  const top = await sampleTop(cli, repo.dir, TOP_WINDOW_MS);
  child.stdin!.end();
  await exited;

  report.figure('teamd gc before the start (archives the old board)', lead.gcMs, 'ms');
  report.figure('tasks gc archived', lead.gcArchived, 'tasks');
  report.figure('lead cold start (until every teammate is idle)', lead.coldStartMs, 'ms');
  report.figure('lead RSS before the live tasks', lead.rssBefore, 'MB');
  report.figure(`lead RSS after ${LIVE.tasks} tasks`, lead.rssAfterTasks, 'MB');
  report.figure(`lead RSS after ${LIVE.messages} more messages`, lead.rssAfterMessages, 'MB');
  if (lead.heapsSumBefore !== undefined) {
    report.figure('lead heaps, every isolate, before the live tasks', lead.heapsSumBefore, 'MB');
    report.figure(`lead heaps, every isolate, after ${LIVE.tasks} tasks`, lead.heapsSumAfterTasks!, 'MB');
    report.figure(`lead heaps, every isolate, after ${LIVE.messages} more messages`, lead.heapsSumAfterMessages!, 'MB');
  }
  report.figure('teamd top: first frame', top.firstFrameMs, 'ms');
  report.figure(`teamd top: CPU over ${TOP_WINDOW_MS / 1000} s idle`, top.cpuPercent, '% core');
  report.figure('teamd top: largest RSS', top.rssMB, 'MB');
  const growth = (lead.rssAfterMessages / lead.rssBefore - 1) * 100;
  report.figure('lead RSS growth over the live work', growth, '%');
  const taskGrowth = (lead.rssAfterTasks / lead.rssBefore - 1) * 100;
  report.figure(`lead RSS growth over the ${LIVE.tasks} tasks`, taskGrowth, '%');
  if (lead.rssWarm !== null) {
    report.figure(`lead RSS after the first fifth of the tasks (every teammate warm)`, lead.rssWarm, 'MB');
    report.figure('lead RSS growth from there to the end', (lead.rssAfterMessages / lead.rssWarm - 1) * 100, '%');
  }
  report.target('top CPU, idle', '≤ 5% of a core', `${top.cpuPercent.toFixed(1)}%`, top.cpuPercent <= 5);
  report.target('top RSS', '≤ 150 MB', `${top.rssMB.toFixed(0)} MB`, top.rssMB <= 150);
  report.target('status', '≤ 200 ms', `${status.median.toFixed(0)} ms median`, status.median <= 200);
  report.target('logs --tail 20', '≤ 200 ms', `${tail.median.toFixed(0)} ms median`, tail.median <= 200);
  report.target(
    'lead cold start',
    '≤ 2 s',
    `${(lead.coldStartMs / 1000).toFixed(2)} s`,
    lead.coldStartMs <= 2000,
  );
  report.target(`lead RSS growth over ${LIVE.tasks} tasks`, '≤ 10%', `${taskGrowth.toFixed(1)}%`, taskGrowth <= 10);
  report.target(
    `lead RSS growth over ${LIVE.tasks} tasks and ${LIVE.messages} messages`,
    '≤ 10%',
    `${growth.toFixed(1)}%`,
    growth <= 10,
  );
  report.target('stall check', '≤ 5 ms per run', `${stall.median.toFixed(2)} ms median`, stall.median <= 5);
  report.note('status and logs are whole processes (Node start included: see the floor row)');
  report.note('every lead RSS reading follows a full GC in every isolate (the teammates\' threads too)');
  report.note(
    'the event log is not rotated during the run (history.rotateBytes set huge): the readers face the whole log',
  );
} catch (err) {
  console.error(`soak failed: ${(err as Error).stack ?? String(err)}`);
  process.exitCode = 1;
} finally {
  if (probe && probe.exitCode === null) probe.kill('SIGKILL');
  await repo.close().catch(() => undefined);
}
// The tiny run (the test's) prints its table and leaves bench/results/ alone.
if (!process.exitCode) {
  if (tiny) console.log(renderText(report.data));
  else await report.finish();
}
