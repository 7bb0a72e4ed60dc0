/**
 * The token ledger: a 10-task team (3 teammates; 3 tasks with --quick) on
 * the real SDK against the fake server's prompt-cache simulation, once per
 * workload (./workloads.ts): `tiny` (three-turn tasks of ≈ 2k-token
 * requests), `realistic` (tasks that read three real source files, edit
 * one and check it) and `long` (19-call tasks over six real files: glob,
 * grep, partial reads, three edits, bash checks). Prints per teammate and per task: input, output,
 * cache-read and cache-write tokens, the share of input read from the cache,
 * the share of all tokens spent on coordination, and tool-schema tokens per
 * call; then the targets for each workload.
 * Token counts are the fake server's (about four characters a token).
 *
 * With `--calls`, also every model call: its task, cache read and write, and
 * coordination tokens (to see which calls write to the cache).
 *
 *   npm run bench -- tokens [--quick] [--calls]
 */
import { benchArgs, sized } from '../support/args.js';
import { loadDaemon } from '../support/dist.js';
import { BenchReport } from '../support/report.js';
import { formatLedger } from '../../src/observe/token-ledger.js';
import { LEDGER_MODEL, runLedger, type LedgerRun } from './ledger-run.js';
import { LONG, REALISTIC, TINY, type Workload } from './workloads.js';

const args = benchArgs();
const TASKS = sized(args, 10, 3);
const TEAMMATES = 3;
const WORKLOADS = [TINY, REALISTIC, LONG];

const report = new BenchReport('tokens', 'Token ledger: cache and coordination shares', args.quick, {
  tasks: TASKS,
  teammates: TEAMMATES,
  model: LEDGER_MODEL,
  workloads: WORKLOADS.map((w) => w.name),
});
const share = (part: number, whole: number): number => (whole > 0 ? part / whole : 0);
const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;

/** One line per model call, in transcript order per agent. */
function callLines(run: LedgerRun): string[] {
  const head = 'agent  task   cache read  cache write  output  coord';
  const lines = run.calls.map((c) =>
    [c.agent.padEnd(5), c.task.padEnd(5), String(c.usage.cache_read_input_tokens).padStart(10),
      String(c.usage.cache_creation_input_tokens).padStart(11), String(c.usage.output_tokens).padStart(6),
      String(c.coordinationTokens).padStart(5)].join('  '),
  );
  return [head, ...lines];
}

function reportRun(workload: Workload, run: LedgerRun): void {
  const label = (what: string): string => `${workload.name}: ${what}`;
  const tables = [...formatLedger('teammate', run.teammates), '', ...formatLedger('task', run.tasks)];
  console.log(`── workload ${workload.name}\n${tables.join('\n')}\n`);
  if (process.argv.includes('--calls')) console.log(`${callLines(run).join('\n')}\n`);
  report.note(`workload ${workload.name}`);
  for (const line of tables) report.note(line);
  const total = run.teammates.at(-1)!;
  report.row(label('tool-schema tokens per request'), run.schemaTokensPerRequest, 'tokens');
  report.row(label('prompt tokens per request'), run.promptTokensPerRequest, 'tokens');
  report.figure(label('requests'), run.requests, 'count');
  report.figure(label('input read from cache'), total.cacheShare * 100, '%');
  report.figure(label('input an ideal cache would read (bound)'), run.cacheShareBound * 100, '%');
  report.figure(label('cache share of its bound'), share(total.cacheShare, run.cacheShareBound) * 100, '%');
  report.figure(label('coordination share of all tokens'), total.coordinationShare * 100, '%');
  const cache = total.cacheShare;
  report.target(label('cache share of input (multi-turn run)'), '≥ 90%', pct(cache), cache >= 0.9);
  const coord = total.coordinationShare;
  report.target(label('coordination share of all tokens'), '≤ 3%', pct(coord), coord <= 0.03);
  const maxSchema = Math.max(...run.schemaTokensPerRequest);
  report.target(label('tool-schema tokens per request'), '≤ 2k', String(maxSchema), maxSchema <= 2_000);
}

const daemon = await loadDaemon();
for (const workload of WORKLOADS)
  reportRun(workload, await runLedger(daemon, { tasks: TASKS, teammates: TEAMMATES, workload }));
await report.finish();
