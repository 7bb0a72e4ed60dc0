/**
 * Hosts: what it costs to run a teammate out of the lead's process. For each
 * host kind (thread, process, sandbox where bubblewrap is present, and any of
 * extra-hosts.ts), in a fresh process each: claim → first model request,
 * the gap between model requests of a tool turn (the per-message overhead of
 * the channel, against threads), start → idle, and the RSS of the lead with
 * its teammates' processes when idle, per teammate over a lead with none.
 *
 *   npm run bench -- hosts [--quick]
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchArgs, sized } from '../support/args.js';
import { BenchReport } from '../support/report.js';
import { EXTRA_HOSTS } from './extra-hosts.js';

const args = benchArgs();
const COUNT = sized(args, 4, 2);
const TASKS = sized(args, 20, 5);
const PROBE = fileURLToPath(new URL('probe.ts', import.meta.url));
const hasBwrap = (process.env.PATH ?? '').split(':').some((d) => d && existsSync(`${d}/bwrap`));

interface Reading {
  startMs: number;
  rssMB: number;
  claimToFirst: number[];
  turnGaps: number[];
}

function probe(host: object, count: number, tasks: number): Reading {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', PROBE, JSON.stringify(host), String(count), String(tasks)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Reading;
}

const hosts: { label: string; config: object }[] = [
  { label: 'thread', config: { kind: 'thread' } },
  { label: 'process', config: { kind: 'process' } },
  ...(hasBwrap ? [{ label: 'sandbox', config: { kind: 'sandbox' } }] : []),
  ...EXTRA_HOSTS,
];
const report = new BenchReport('hosts', 'Hosts: thread, process, sandbox teammates side by side', args.quick, {
  teammates: COUNT,
  tasks: TASKS,
  hosts: hosts.map((h) => h.label),
});
const empty = probe({ kind: 'thread' }, 0, 0);
for (const { label, config } of hosts) {
  const r = probe(config, COUNT, TASKS);
  const floor = label === 'thread' ? undefined : 'thread';
  report.row(`${label}: claim → first model request`, r.claimToFirst, 'ms', floor && `thread: claim → first model request`);
  report.row(`${label}: tool turn (model request to next)`, r.turnGaps, 'ms', floor && `thread: tool turn (model request to next)`);
  report.figure(`${label}: start → ${COUNT} idle`, r.startMs, 'ms');
  report.figure(`${label}: idle RSS per teammate (lead + its processes)`, (r.rssMB - empty.rssMB) / COUNT, 'MB', floor && `thread: idle RSS per teammate (lead + its processes)`);
}
if (!hasBwrap) report.note('bubblewrap (bwrap) is not on PATH here: no sandbox figures');
report.note('RSS counts the lead and every process below it (a process teammate, a sandbox and its bwrap), over a lead with no teammates');
await report.finish();
