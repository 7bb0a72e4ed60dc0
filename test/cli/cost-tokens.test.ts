import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { costTokens } from '../../src/cli/cost.js';
import { teamFactsOf } from '../../src/cli/token-facts.js';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { LEDGER_COLUMNS, ledgerRows } from '../../src/observe/token-ledger.js';
import { ledgerCallsFromTranscripts } from '../../src/observe/token-ledger-transcripts.js';
import { line, usage, writeSession, type SessionSpec } from '../dashboard/support/transcripts.js';
import { captureStdout } from '../observe/support/capture-stdout.js';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

function repo(): void {
  root = mkdtempSync(join(tmpdir(), 'teamd-tokens-'));
  mkdirSync(join(root, '.team'));
  writeFileSync(
    join(root, '.team', 'config.json'),
    JSON.stringify({ teammates: [{ name: 'w1' }, { name: 'w2' }] }),
  );
  const task: SessionSpec = { agent: 'w1', session: 's1', parent: 'parser' };
  writeSession(root, task, [
    line.header(task),
    line.init(task),
    line.prompt(task, 'Task parser: Write the parser'),
    line.tool(task, 't1', 'bash', { command: 'npm test' }, usage(0, 100, 0, 2000)),
    line.toolResult(task, 't1', 'ok'),
    line.tool(task, 't2', 'send_message', { to: 'w2', content: 'parser is done' }, usage(0, 50, 2000, 150)),
    line.toolResult(task, 't2', 'sent'),
    line.text(task, 'Done.', usage(0, 20, 2150, 60)),
  ]);
  const mail: SessionSpec = { agent: 'w2', session: 's2', parent: 'mail:m1' };
  writeSession(root, mail, [
    line.header(mail),
    line.prompt(
      mail,
      'You have new messages. Answer them if needed.\n\n<message id="m1" from="w1" type="message">\nparser is done\n</message>',
    ),
    line.text(mail, 'Noted.', usage(300, 5)),
  ]);
}

describe('teamd cost --tokens', () => {
  it('splits tokens per teammate and task, with the cache share and what went to coordination', async () => {
    repo();
    const calls = ledgerCallsFromTranscripts(
      root,
      teamFactsOf(TeamConfigSchema.parse({ teammates: [{ name: 'w1' }, { name: 'w2' }] })),
    );
    expect(calls.map((c) => [c.agent, c.task])).toEqual([
      ['w1', 'parser'],
      ['w1', 'parser'],
      ['w1', 'parser'],
      ['w2', 'mail'],
    ]);
    const [first, second, third, mail] = calls;
    // the team prompt and team schemas are in every call; the send_message call and its result add to the later ones
    expect(second!.coordinationTokens).toBeGreaterThan(first!.coordinationTokens);
    expect(third!.coordinationTokens).toBeGreaterThan(first!.coordinationTokens);
    expect(mail!.coordinationTokens).toBeGreaterThan(20);
    const rows = ledgerRows(calls, 'task');
    expect(rows.map((r) => r.key)).toEqual(['mail', 'parser', 'total']);
    expect(rows[1]!.cacheShare).toBeCloseTo(4150 / (4150 + 2210), 5);

    const out = await captureStdout(() => costTokens({ dir: root }));
    const lines = out.stdout.split('\n');
    expect(lines[0]!.split(/\s{2,}/)).toEqual(['teammate', ...LEDGER_COLUMNS]);
    expect(lines.some((l) => l.startsWith('task '))).toBe(true);
    expect(lines.filter((l) => l.startsWith('total'))).toHaveLength(2);
    const json = JSON.parse((await captureStdout(() => costTokens({ dir: root, json: true }))).stdout);
    expect(json.teammates.map((r: { key: string }) => r.key)).toEqual(['w1', 'w2', 'total']);
  });
});
