/**
 * Scale: a lead cold-started on 1,000 / 10,000 / 100,000 task files (1,000
 * and 10,000 with --quick): the time to index them (Lead.start, no
 * teammates), then the cost of one claim and of one completion that unblocks
 * 10 dependants, at each size. Each size runs in a fresh process. The mix:
 * 150 ready tasks, 20 (10) pending hubs with 10 dependants each, the rest
 * completed in chains. Baseline: the same measures at the smallest size
 * (claim at 100,000 should cost ≤ 1.5× claim at 1,000: the index is incremental).
 *
 *   npm run bench -- scale [--quick]
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, sized } from '../support/args.js';
import { BenchReport } from '../support/report.js';

const args = benchArgs();
const SIZES = sized(args, [1_000, 10_000, 100_000], [1_000, 10_000]);
const READY = 150; // enough for the claims of both phases and their warm-ups
const HUBS = sized(args, 20, 10);
const CLAIMS = sized(args, 50, 20);
const DEPENDANTS = 10;
const PROBE = fileURLToPath(new URL('probe.ts', import.meta.url));

interface Probe {
  coldStartMs: number;
  openMs: number;
  claimMs: number[];
  unblockMs: number[];
  leadClaimMs: number[];
  leadUnblockMs: number[];
  claimReads: number[];
  leadClaimReads: number[];
  rssMB: number;
  watches: number;
}

const NOW = new Date().toISOString();
function taskJson(id: string, status: string, blockedBy: string[], priority = 0): string {
  const done = status === 'completed';
  return JSON.stringify(
    {
      id,
      subject: `task ${id}`,
      description: 'a task of the scale benchmark',
      status,
      owner: done ? 'w0' : null,
      blockedBy,
      priority,
      attempts: 0,
      lease: null,
      result: done ? { summary: 'done' } : null,
      notes: [],
      metadata: {},
      createdAt: NOW,
      updatedAt: NOW,
    },
    null,
    2,
  );
}

/** Every task file of one size: the ready ones, the hubs and their dependants, and completed chains for the rest. */
function* tasksOf(size: number): Generator<[string, string]> {
  for (let i = 0; i < READY; i++) yield [`r${i}`, taskJson(`r${i}`, 'pending', [])];
  for (let h = 0; h < HUBS; h++) {
    yield [`h${h}`, taskJson(`h${h}`, 'pending', [], 1)]; // after the ready ones (the lowest priority value runs first): claims must not take the hubs
    for (let d = 0; d < DEPENDANTS; d++) yield [`h${h}-d${d}`, taskJson(`h${h}-d${d}`, 'pending', [`h${h}`])];
  }
  const rest = size - READY - HUBS * (DEPENDANTS + 1);
  for (let c = 0; c < rest; c++) yield [`c${c}`, taskJson(`c${c}`, 'completed', c % 10 ? [`c${c - 1}`] : [])];
}

async function makeRepo(size: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `teamd-bench-scale-${size}-`));
  await mkdir(join(dir, '.tasks'), { recursive: true });
  await mkdir(join(dir, '.team'));
  await writeFile(join(dir, '.team', 'script.json'), JSON.stringify({ rules: [] }));
  await writeFile(
    join(dir, '.team', 'config.json'),
    JSON.stringify({ model: 'scripted:.team/script.json', teammates: [], worktrees: { mode: 'off' } }),
  );
  const batch: Promise<void>[] = [];
  for (const [id, json] of tasksOf(size)) {
    batch.push(writeFile(join(dir, '.tasks', `${id}.json`), json));
    if (batch.length === 64) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
  return dir;
}

function probe(dir: string): Probe {
  const out = execFileSync(process.execPath, ['--import', 'tsx', PROBE, dir, String(HUBS), String(CLAIMS)], {
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Probe;
}

const report = new BenchReport(
  'scale',
  'Scale: cold start, claim and unblocking cost by number of task files',
  args.quick,
  { sizes: SIZES, ready: READY, hubs: HUBS, dependants: DEPENDANTS, claims: CLAIMS },
);
const results = new Map<number, Probe>();
for (const size of SIZES) {
  const dir = await makeRepo(size);
  try {
    results.set(size, probe(dir));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const base = SIZES[0]!;
const fmt = (n: number): string => n.toLocaleString('en');
const rows: [string, (p: Probe) => number[]][] = [
  ['claim, store alone', (p) => p.claimMs],
  ['complete + unblock 10, store alone', (p) => p.unblockMs],
  ['claim, in a running lead', (p) => p.leadClaimMs],
  ['complete + unblock 10, in a running lead', (p) => p.leadUnblockMs],
];
for (const [name, samples] of rows) {
  for (const size of SIZES)
    report.row(
      `${name} @ ${fmt(size)}`,
      samples(results.get(size)!),
      'ms',
      size === base ? undefined : `${name} @ ${fmt(base)}`,
    );
}
// Machine-independent: how many task files one claim reads (an incremental index reads the same number at any size).
for (const [name, samples] of [
  ['task files read per claim, store alone', (p: Probe) => p.claimReads],
  ['task files read per claim, in a running lead', (p: Probe) => p.leadClaimReads],
] as const) {
  for (const size of SIZES) report.row(`${name} @ ${fmt(size)}`, samples(results.get(size)!), 'files');
}
for (const size of SIZES) {
  const r = results.get(size)!;
  report.figure(
    `cold start (Lead.start) @ ${fmt(size)}`,
    r.coldStartMs,
    'ms',
    size === base ? undefined : `cold start (Lead.start) @ ${fmt(base)}`,
  );
  report.figure(`TaskStore.open alone @ ${fmt(size)}`, r.openMs, 'ms');
  report.figure(`lead RSS after start @ ${fmt(size)}`, r.rssMB, 'MB');
  report.figure(`inotify watches held by the lead @ ${fmt(size)}`, r.watches, 'count');
}
const largest = SIZES.at(-1)!;
for (const name of ['claim, store alone', 'claim, in a running lead']) {
  const ratio =
    report.data.rows[`${name} @ ${fmt(largest)}`]!.median /
    report.data.rows[`${name} @ ${fmt(base)}`]!.median;
  report.target(
    `${name} @ ${fmt(largest)} vs @ ${fmt(base)}`,
    '≤ 1.5×',
    `${ratio.toFixed(2)}× (median)`,
    ratio <= 1.5,
  );
}
const cold = results.get(largest)!.coldStartMs;
if (largest >= 100_000)
  report.target('cold start @ 100,000', '≤ 5 s', `${(cold / 1000).toFixed(2)} s`, cold <= 5_000);
else report.note('cold start at 100,000 is measured by the full run only');
await report.finish();
