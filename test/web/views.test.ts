/** The event log as the page filters it, and the cost timeline behind the chart. */
import { afterEach, expect, it } from 'vitest';
import type { Spend } from '../../src/observe/cost.js';
import { EventLog } from '../../src/observe/event-log.js';
import { emptyUsage } from '../../src/model/types.js';
import { CostTimeline } from '../../src/web/cost-series.js';
import { pageHeaders, raw, webRepo, type WebRepo } from './support/server.js';

let repo: WebRepo | undefined;
afterEach(async () => {
  await repo?.close();
  repo = undefined;
});

it('GET /api/events filters by types, agent and task, newest last, at most limit', async () => {
  const r = (repo = await webRepo());
  const log = EventLog.forRepo(r.dir);
  for (let i = 0; i < 30; i++) {
    log.append({ type: 'task_claimed', task: `t${i % 3}`, agent: i % 2 ? 'ann' : 'bob', attempt: 1 });
    log.append({ type: 'notice', message: `n${i}` });
  }
  const get = async (q: string) => JSON.parse((await raw(r.web.port, 'GET', `/api/events?${q}`, { cookie: 'teamd_web=test-token-0123456789' })).body) as { type: string; agent: string; task: string; text: string }[];
  const ann = await get('agent=ann&type=task_claimed');
  expect(ann).toHaveLength(15);
  expect(ann.every((e) => e.agent === 'ann' && e.type === 'task_claimed')).toBe(true);
  const t1 = await get('task=t1&limit=4');
  expect(t1).toHaveLength(4);
  expect(t1.every((e) => e.task === 't1')).toBe(true);
  expect(t1.at(-1)!.text).toContain('claimed t1');
  expect((await get('type=notice&limit=5')).map((e) => e.text)).toEqual(['n25', 'n26', 'n27', 'n28', 'n29']);
});

const spend = (run: string, agent: string, model: string, costUsd: number, finished = true): Spend => ({ run, agent, task: null, model, usage: emptyUsage(), costUsd, finished });

it('the cost timeline is cumulative per teammate and per model; a run is placed once, a running one at now', () => {
  const t = new CostTimeline();
  const first = t.update([spend('/nope/a.jsonl#0', 'ann', 'm1', 1), spend('/nope/b.jsonl#0', 'bob', 'm2', 2)], 1_000);
  expect(first.byTeammate.map((s) => [s.key, s.points.at(-1)!.usd])).toEqual([['ann', 1], ['bob', 2]]);
  const later = t.update(
    [spend('/nope/a.jsonl#0', 'ann', 'm1', 1), spend('/nope/b.jsonl#0', 'bob', 'm2', 2), spend('/nope/a.jsonl#1', 'ann', 'm2', 0.5), spend('/nope/a.jsonl#2', 'ann', 'm1', 0.25, false)],
    5_000,
  );
  const ann = later.byTeammate.find((s) => s.key === 'ann')!;
  expect(ann.points).toEqual([{ t: 1_000, usd: 1 }, { t: 5_000, usd: 1.75 }]);
  expect(later.byModel.find((s) => s.key === 'm2')!.points.at(-1)!.usd).toBe(2.5);
  const many = new CostTimeline();
  const runs = Array.from({ length: 1_000 }, (_, i) => spend(`/nope/s.jsonl#${i}`, 'ann', 'm1', 0.01));
  many.update([], 0);
  for (let i = 0; i < 1_000; i += 100) many.update(runs.slice(0, i + 100), i);
  const pts = many.update(runs, 10_000).byTeammate[0]!.points;
  expect(pts.length).toBeLessThanOrEqual(201);
  expect(pts.at(-1)!.usd).toBeCloseTo(10, 6);
});

it("a teammate's host is its host kind from the config (the ssh target for ssh), its own before the team's", async () => {
  const r = (repo = await webRepo({
    host: { kind: 'process' },
    teammates: [
      { name: 'ann' },
      { name: 'bob', host: { kind: 'thread' } },
      { name: 'cy', host: { kind: 'sandbox' } },
      { name: 'dee', host: { kind: 'ssh', target: 'teamd@build-1.lan', port: 2222 } },
    ],
  }));
  const res = await fetch(`${r.web.origin}/api/stream`, { headers: { cookie: pageHeaders(r.web.port).cookie! } });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('\n\n')) text += decoder.decode((await reader.read()).value);
  await reader.cancel();
  const snapshot = JSON.parse(/^data: (.*)$/m.exec(text)![1]!) as { teammates: { name: string; host: string }[] };
  expect(Object.fromEntries(snapshot.teammates.map((t) => [t.name, t.host]))).toEqual({ ann: 'process', bob: 'thread', cy: 'sandbox', dee: 'ssh teamd@build-1.lan' });
});
