/**
 * The token ledger: a 10-task team (3 teammates; 3 tasks with --quick) on
 * the real SDK against the fake server's prompt-cache simulation. Prints per
 * teammate and per task: input, output, cache-read and cache-write tokens,
 * the share of input read from the cache, the share of all tokens spent on
 * coordination, and tool-schema tokens per call; then the targets.
 * Token counts are the fake server's (about four characters a token).
 *
 *   npm run bench -- tokens [--quick]
 */
import { benchArgs, sized } from '../support/args.js';
import { loadDaemon } from '../support/dist.js';
import { BenchReport } from '../support/report.js';
import { formatLedger } from '../../src/observe/token-ledger.js';
import { LEDGER_MODEL, runLedger } from './ledger-run.js';

const args = benchArgs();
const TASKS = sized(args, 10, 3);
const TEAMMATES = 3;

const report = new BenchReport('tokens', 'Token ledger: cache and coordination shares', args.quick, {
  tasks: TASKS,
  teammates: TEAMMATES,
  model: LEDGER_MODEL,
});
const run = await runLedger(await loadDaemon(), { tasks: TASKS, teammates: TEAMMATES });
const tables = [...formatLedger('teammate', run.teammates), '', ...formatLedger('task', run.tasks)];
console.log(`${tables.join('\n')}\n`);
for (const line of tables) report.note(line);
const total = run.teammates.at(-1)!;
report.row('tool-schema tokens per request', run.schemaTokensPerRequest, 'tokens');
report.figure('requests', run.requests, 'count');
report.figure('input read from cache', total.cacheShare * 100, '%');
report.figure('coordination share of all tokens', total.coordinationShare * 100, '%');
const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;
report.target(
  'cache share of input (multi-turn run)',
  '≥ 90%',
  pct(total.cacheShare),
  total.cacheShare >= 0.9,
);
report.target(
  'coordination share of all tokens',
  '≤ 3%',
  pct(total.coordinationShare),
  total.coordinationShare <= 0.03,
);
const maxSchema = Math.max(...run.schemaTokensPerRequest);
report.target('tool-schema tokens per request', '≤ 2k', String(maxSchema), maxSchema <= 2_000);
await report.finish();
