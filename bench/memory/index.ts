/**
 * Memory: the lead's RSS with 0, 8 and 32 idle teammates (0 and 4 with
 * --quick), each in a fresh process, and the increment per teammate; then the
 * same after every teammate has run one one-turn task and gone idle again, so
 * what a teammate loads on first use (its model client, tools, runtime) is
 * counted too, not only deferred. The team's model is the lead's scripted
 * one (served over IPC); for the largest count the same is measured with a
 * model on a loopback fake Messages API, where every teammate loads the
 * Anthropic SDK itself, as with a real model. Floor: the same count of empty
 * worker threads (what Node charges for a thread at all), measured the same
 * way in the same run.
 *
 *   npm run bench -- memory [--quick]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchArgs, sized } from '../support/args.js';
import { BenchReport } from '../support/report.js';

const args = benchArgs();
const COUNTS = sized(args, [0, 8, 32], [0, 4]);
const PROBE = fileURLToPath(new URL('probe.ts', import.meta.url));

interface Reading {
  rssMB: number;
  /** After one task per teammate (lead readings only). */
  afterTaskMB?: number;
  idle: number;
  startMs?: number;
}

function probe(mode: 'lead' | 'api' | 'bare', count: number): Reading {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', PROBE, mode, String(count)], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Reading;
}

const report = new BenchReport('memory', 'Memory: lead RSS with idle teammates', args.quick, {
  teammates: COUNTS,
});
const lead = new Map(COUNTS.map((k) => [k, probe('lead', k)]));
const bare = new Map(COUNTS.map((k) => [k, k === 0 ? lead.get(0)! : probe('bare', k)]));
const zero = lead.get(0)!.rssMB;
const bareZero = probe('bare', 0).rssMB;
for (const k of COUNTS) {
  report.figure(`lead RSS, ${k} idle teammates`, lead.get(k)!.rssMB, 'MB');
  if (k === 0) continue;
  report.figure(
    `floor: RSS increment per empty worker thread (${k})`,
    (bare.get(k)!.rssMB - bareZero) / k,
    'MB',
  );
  report.figure(
    `RSS increment per idle teammate (${k})`,
    (lead.get(k)!.rssMB - zero) / k,
    'MB',
    `floor: RSS increment per empty worker thread (${k})`,
  );
  report.figure(`time until ${k} teammates idle`, lead.get(k)!.startMs ?? NaN, 'ms');
  report.figure(`lead RSS, ${k} teammates after one task each`, lead.get(k)!.afterTaskMB ?? NaN, 'MB');
  report.figure(
    `RSS increment per teammate after one task each (${k})`,
    ((lead.get(k)!.afterTaskMB ?? NaN) - zero) / k,
    'MB',
    `floor: RSS increment per empty worker thread (${k})`,
  );
}
const most = COUNTS.at(-1)!;
const perTeammate = (lead.get(most)!.rssMB - zero) / most;
report.target(
  `RSS per idle teammate (${most})`,
  '≤ 30 MB',
  `${perTeammate.toFixed(1)} MB`,
  perTeammate <= 30,
);
const afterTask = ((lead.get(most)!.afterTaskMB ?? NaN) - zero) / most;
const [apiZero, apiMost] = [probe('api', 0), probe('api', most)];
const apiIdle = (apiMost.rssMB - apiZero.rssMB) / most;
const apiAfterTask = ((apiMost.afterTaskMB ?? NaN) - apiZero.rssMB) / most;
report.figure(`API model: RSS increment per idle teammate (${most})`, apiIdle, 'MB');
report.figure(`API model: RSS increment per teammate after one task each (${most})`, apiAfterTask, 'MB');
report.note(
  `after one task each, a teammate costs ${afterTask.toFixed(1)} MB with the scripted model served by the lead, ` +
    `${apiAfterTask.toFixed(1)} MB with an API model (its own Anthropic SDK); idle before any task: ${perTeammate.toFixed(1)} MB. ` +
    'Increments are over a lead with no teammates, so the lead-side cost of serving the tasks is in them',
);
if (most >= 32)
  report.target(
    '32 teammates on this machine',
    'all idle',
    `${lead.get(most)!.idle} of ${most} idle`,
    lead.get(most)!.idle === most,
  );
else report.note('32 teammates are measured by the full run only');
await report.finish();
