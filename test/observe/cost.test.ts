import { appendFileSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { costReport, groupSpends, TranscriptSpendReader } from '../../src/observe/cost.js';
import {
  line,
  sessionFile,
  usage,
  writeSession,
  type SessionSpec,
} from '../dashboard/support/transcripts.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamd-cost-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const parser: SessionSpec = { agent: 'worker-1', session: 'a-parser', parent: 'parser' };
const mail: SessionSpec = { agent: 'worker-2', session: 'b-mail', parent: 'mail:m-1' };
const lead: SessionSpec = { agent: 'lead', session: 'c-lead', parent: null };

/**
 * worker-1: a finished run (recorded $0.50, more than today's prices say: the record wins)
 *   and a run still going with one call (priced now: 100 in × $2/M + 10 out × $10/M = $0.0003).
 * worker-2: a run on two models whose $0.03 is split by what each model's usage costs
 *   (sonnet 1000 in + 100 out = $0.003; haiku-4-5 2000 in + 200 out = $0.003: half each),
 *   plus a subagent's call (depth 1, already inside the result) and a torn last line.
 * lead: a run with no task.
 */
function writeTeamTranscripts(): void {
  writeSession(root, parser, [
    line.header(parser),
    line.init(parser),
    line.tool(parser, 't1', 'bash', { command: 'npm test' }, usage(600, 1500, 3000, 4000)),
    line.toolResult(parser, 't1', 'ok'),
    line.text(parser, 'done', usage(400, 500)),
    line.result(parser, { 'claude-sonnet-5-5': usage(1000, 2000, 3000, 4000) }, 0.5, 2),
    line.prompt(parser, 'one more thing'),
    line.text(parser, 'working on it', usage(100, 10)),
  ]);
  writeSession(root, mail, [
    line.header(mail),
    line.text(mail, 'sonnet part', usage(1000, 100)),
    line.text(mail, 'a subagent', usage(99_999, 99_999), 'claude-sonnet-5-5', 1),
    line.text(mail, 'haiku part', usage(2000, 200), 'claude-haiku-4-5'),
    line.result(
      mail,
      { 'claude-sonnet-5-5': usage(1000, 100), 'claude-haiku-4-5': usage(2000, 200) },
      0.03,
      2,
    ),
  ]);
  appendFileSync(sessionFile(root, mail), '{"type":"assistant","message":{"ro');
  writeSession(root, lead, [
    line.header(lead),
    line.text(lead, 'plan', usage(10, 10)),
    line.result(lead, { 'claude-sonnet-5-5': usage(10, 10) }, 0.0001, 1),
  ]);
}

describe('costReport', () => {
  beforeEach(writeTeamTranscripts);

  it('by teammate: recorded results, running runs priced per call, subagent calls not counted twice', async () => {
    const r = await costReport(root, 'teammate');
    expect(r.rows.map((x) => x.key)).toEqual(['worker-1', 'worker-2', 'lead']);
    expect(r.rows[0]).toEqual({
      key: 'worker-1',
      tokens: { input: 1100, output: 2010, cacheRead: 3000, cacheWrite: 4000 },
      costUsd: expect.closeTo(0.5003, 10),
      runs: 2,
    });
    expect(r.rows[1]).toEqual({
      key: 'worker-2',
      tokens: { input: 3000, output: 300, cacheRead: 0, cacheWrite: 0 },
      costUsd: expect.closeTo(0.03, 10),
      runs: 1,
    });
    expect(r.rows[2]).toMatchObject({ key: 'lead', costUsd: expect.closeTo(0.0001, 10), runs: 1 });
    expect(r.total).toEqual({
      tokens: { input: 4110, output: 2320, cacheRead: 3000, cacheWrite: 4000 },
      costUsd: expect.closeTo(0.5304, 10),
      runs: 4,
    });
    expect(r.running).toBe(1);
  });

  it('by task and by model', async () => {
    const byTask = await costReport(root, 'task');
    expect(byTask.rows.map((x) => [x.key, x.runs, Number(x.costUsd.toFixed(6))])).toEqual([
      ['parser', 2, 0.5003],
      ['(messages)', 1, 0.03],
      ['(no task)', 1, 0.0001],
    ]);
    const byModel = await costReport(root, 'model');
    expect(byModel.rows).toEqual([
      {
        key: 'claude-sonnet-5-5',
        tokens: { input: 2110, output: 2120, cacheRead: 3000, cacheWrite: 4000 },
        costUsd: expect.closeTo(0.5154, 10),
        runs: 4,
      },
      {
        key: 'claude-haiku-4-5',
        tokens: { input: 2000, output: 200, cacheRead: 0, cacheWrite: 0 },
        costUsd: expect.closeTo(0.015, 10),
        runs: 1,
      },
    ]);
    expect(byModel.total.costUsd).toBeCloseTo(byTask.total.costUsd, 10);
  });

  it('price overrides from the config price running calls', async () => {
    const r = await costReport(root, 'teammate', {
      prices: { 'claude-sonnet-5-5': { input: 1000, output: 0 } },
    });
    // 100 input tokens at $1000/M = $0.1, on top of the recorded $0.50.
    expect(r.rows[0]!.costUsd).toBeCloseTo(0.6, 10);
  });

  it('reads incrementally: appended lines count once, a finished run replaces its estimate', async () => {
    const reader = new TranscriptSpendReader(root);
    expect(groupSpends(await reader.spends(), 'teammate').running).toBe(1);
    writeSession(
      root,
      parser,
      [line.result(parser, { 'claude-sonnet-5-5': usage(100, 10) }, 0.0004, 1)],
      true,
    );
    const after = groupSpends(await reader.spends(), 'teammate');
    expect(after.running).toBe(0);
    expect(after.rows[0]).toMatchObject({ key: 'worker-1', costUsd: expect.closeTo(0.5004, 10), runs: 2 });
    expect(groupSpends(await reader.spends(), 'teammate')).toEqual(after);
  });

  it('knows each agent\'s newest transcript write from its own listing (top needs no second one)', async () => {
    const reader = new TranscriptSpendReader(root);
    const first = groupSpends(await reader.spends(), 'teammate');
    const file = join(root, '.team', 'state', 'transcripts', 'worker-1', 'a-parser.jsonl');
    expect(reader.newestWrite('worker-1')).toBe(statSync(file).mtimeMs);
    expect(reader.newestWrite('nobody')).toBeUndefined();
    utimesSync(file, 1_780_000_000, 1_780_000_000);
    expect(groupSpends(await reader.spends(), 'teammate')).toEqual(first);
    expect(reader.newestWrite('worker-1')).toBe(1_780_000_000_000);
  });
});

it('an empty repository spent nothing', async () => {
  expect(await costReport(root, 'model')).toEqual({
    by: 'model',
    rows: [],
    total: { tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, costUsd: 0, runs: 0 },
    running: 0,
  });
});
