/**
 * The real CLI over a repository whose files hold terminal control sequences
 * (generated: test/observe/support/hostile-text.ts): a task's subject and
 * description, a mail, a cron prompt, transcript lines, an approval request,
 * team events, the daemon log, an unknown field and a file name that the
 * problems quote, and a file whose JSON error quotes its bytes. No command
 * lets an ESC, C1, DEL, bidi control or CR through to stdout or stderr, and
 * each hostile record is still shown (escaped); `--json` parses back to the
 * very strings on disk.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalSafeLine } from '../../src/observe/terminal-safe.js';
import { line, usage, type SessionSpec } from '../dashboard/support/transcripts.js';
import { firstUnsafe, inlineDanger, markedHostileText } from '../observe/support/hostile-text.js';
import { teamd, type TeamdRun } from './run-teamd.js';

/** A planted hostile field: its text, and the start of its first line that every view shows. */
interface Hostile {
  text: string;
  head: string;
}

const SEED = Date.now();

/** A hostile text starting with `marker` and a dangerous piece, generated with fast-check. */
function hostile(marker: string, seed: number): Hostile {
  const [first] = fc.sample(inlineDanger(), { numRuns: 1, seed });
  const [rest] = fc.sample(markedHostileText(''), { numRuns: 1, seed: seed + 1 });
  const text = `${marker}${first!}${rest!}`;
  return { text, head: `${marker}${first!}` };
}

const H = {
  subject: hostile('Msubj', SEED),
  description: hostile('Mdesc', SEED + 10),
  mail: hostile('Mmail', SEED + 20),
  cron: hostile('Mcron', SEED + 30),
  said: hostile('Msaid', SEED + 40),
  command: hostile('Mcmd', SEED + 50),
  approval: hostile('Mappr', SEED + 60),
  approvalInput: hostile('Minput', SEED + 70),
  event: hostile('Mevent', SEED + 80),
  daemon: hostile('Mdaemon', SEED + 90),
  key: hostile('Mkey', SEED + 100),
  parent: hostile('Mpar', SEED + 110),
};

let root: string;
let dir: string;
const writeJson = (file: string, value: unknown): void => {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), JSON.stringify(value, null, 2));
};

function plant(): void {
  const ts = '2026-11-29T10:00:00.000Z';
  writeJson('.team/config.json', { teammates: [{ name: 'ann' }] });
  writeJson('.tasks/evil.json', { subject: H.subject.text, description: H.description.text });
  writeJson('.tasks/oddkey.json', { subject: 'a fine subject', [H.key.text]: 1 });
  // A JSON error quotes the bytes it stopped at: here an ESC and an 8-bit CSI.
  writeFileSync(join(dir, '.tasks', 'broken.json'), '{"subject": \x1b]52;c;cm0K\x07\u009b2J}');
  writeFileSync(join(dir, '.tasks', 'Mfname\x1b[2J\u202e.json'), '{"subject": "named"}');
  writeJson('.mailboxes/ann.json', [{ id: 'm1', from: 'lead\x1b[2J', to: 'ann', content: H.mail.text, ts }]);
  writeJson('.cron/job1.json', { id: 'job1', cron: '0 * * * *', prompt: H.cron.text, to: 'ann', createdAt: ts });
  // A session's parent is a task id in a file anyone can write: `cost --by task` shows it.
  const s: SessionSpec = { agent: 'ann', session: 's1', parent: H.parent.text };
  const lines = [
    line.header(s),
    line.init(s),
    line.prompt(s, `Task evil: ${H.subject.text}`),
    line.text(s, H.said.text, usage(100, 10)),
    line.tool(s, 't1', 'bash', { command: H.command.text }, usage(100, 10)),
    line.toolResult(s, 't1', H.command.text, true),
    line.result(s, { 'claude-sonnet-5-5': usage(200, 20) }, 0.01, 2, 'error_during_execution', H.said.text),
  ];
  mkdirSync(join(dir, '.team', 'state', 'transcripts', 'ann'), { recursive: true });
  writeFileSync(join(dir, '.team', 'state', 'transcripts', 'ann', 's1.jsonl'), lines.map((l) => JSON.stringify(l) + '\n').join(''));
  writeJson('.team/state/requests/perm-1.json', {
    id: 'perm-1',
    kind: 'permission',
    agent: 'ann',
    task: 'evil',
    tool: 'bash',
    input: { command: `npm test\n${H.approvalInput.text}` },
    summary: `bash npm test\n${H.approval.text}`,
    status: 'pending',
    createdAt: ts,
    expiresAt: null,
    answer: null,
  });
  const events = [
    { ts, type: 'notice', agent: 'ann', message: H.event.text },
    { ts, type: 'task_failed', task: 'evil', agent: 'ann', error: H.event.text },
  ];
  writeFileSync(join(dir, '.team', 'state', 'events.jsonl'), events.map((e) => JSON.stringify(e) + '\n').join(''));
  const log = { level: 50, time: ts, pid: 1, msg: H.daemon.text, event: { type: 'notice' } };
  writeFileSync(join(dir, '.team', 'state', 'daemon.log'), JSON.stringify(log) + '\n');
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'teamd-terminal-safe-'));
  dir = join(root, 'repo');
  mkdirSync(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  plant();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Nothing unsafe in either stream; the seed says how to make the same texts again. */
function expectSafe(run: TeamdRun): void {
  expect(firstUnsafe(run.stdout), `stdout (seed ${SEED})`).toBeNull();
  expect(firstUnsafe(run.stderr), `stderr (seed ${SEED})`).toBeNull();
}

/** The record is there, escaped: the start of its first line as terminalSafeLine shows it. */
const shown = (run: TeamdRun, h: Hostile): void =>
  expect(run.stdout + run.stderr, `seed ${SEED}`).toContain(terminalSafeLine(h.head));

/** Every string in a parsed JSON value. */
const stringsOf = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => [k, ...stringsOf(x)]) : [];

/** One JSON value, or JSON lines. */
function jsonValues(text: string): unknown[] {
  try {
    return [JSON.parse(text)];
  } catch {
    return text.split('\n').map((l) => JSON.parse(l) as unknown);
  }
}

/** The JSON of stdout (one value, or JSON lines) holds `h` exactly as it is on disk. */
function expectJsonHolds(run: TeamdRun, ...hs: Hostile[]): void {
  const text = run.stdout.trim();
  const values = jsonValues(text);
  const strings = values.flatMap(stringsOf);
  for (const h of hs) expect(strings.some((s) => s.includes(h.text)), `seed ${SEED}: ${JSON.stringify(h.text)}`).toBe(true);
}

/** Each command: its arguments, the records it must show, and whether it fails (exit 1). */
const VIEWS: [string, string[], Hostile[]][] = [
  // The approval's hostile line is its second: the list marks it, `approvals show` prints it.
  ['status', ['status'], [H.subject]],
  ['task ls', ['task', 'ls'], [H.subject]],
  ['task show', ['task', 'show', 'evil'], [H.subject, H.description]],
  ['inbox', ['inbox', 'ann'], [H.mail]],
  ['cron ls', ['cron', 'ls'], [H.cron]],
  ['logs', ['logs', 'ann'], [H.said, H.command]],
  ['logs --events', ['logs', '--events'], [H.event]],
  ['logs --daemon', ['logs', '--daemon'], [H.daemon]],
  ['validate', ['validate'], [H.key]],
  ['approvals', ['approvals'], []],
  ['approvals show', ['approvals', 'show', 'perm-1'], [H.approval, H.approvalInput]],
  ['cost', ['cost', '--by', 'task'], [H.parent]],
];

describe('teamd over hostile files prints nothing raw', () => {
  it.each(VIEWS)('%s', async (_name, args, records) => {
    const run = await teamd(dir, ...args);
    expect(run.code, run.stderr).toBe(args[0] === 'validate' ? 1 : 0);
    expectSafe(run);
    for (const h of records) shown(run, h);
  }, 60_000);

  it.each(VIEWS.filter(([name]) => name !== 'logs --daemon'))('%s --json', async (_name, args, records) => {
    const run = await teamd(dir, ...args, '--json');
    expect(run.code, run.stderr).toBe(args[0] === 'validate' ? 1 : 0);
    expectSafe(run);
    expectJsonHolds(run, ...records);
  }, 60_000);

  it('logs --daemon --json', async () => {
    const run = await teamd(dir, 'logs', '--daemon', '--json');
    expectSafe(run);
    expectJsonHolds(run, H.daemon);
  }, 60_000);

  it('the problems name the bad files: the file name, the unknown field and the JSON error, each escaped', async () => {
    const run = await teamd(dir, 'validate');
    expect(run.stdout).toContain('broken.json: invalid JSON');
    expect(run.stdout).toContain(terminalSafeLine('Mfname\x1b[2J\u202e'));
    const ls = await teamd(dir, 'task', 'ls');
    expectSafe(ls);
    expect(ls.stderr).toMatch(/^teamd: warning: .*broken\.json/m);
  }, 60_000);

  it('approvals marks the hidden line; approvals show prints every line of the request', async () => {
    const list = await teamd(dir, 'approvals');
    expect(list.stdout).toMatch(/bash npm test … \(\+\d+ lines?\)/);
    const show = await teamd(dir, 'approvals', 'show', 'perm-1');
    const lines = show.stdout.split('\n');
    expect(lines).toContain('    npm test');
    for (const part of H.approvalInput.text.split('\n').filter((l) => l.trim()))
      expect(show.stdout, `seed ${SEED}`).toContain(terminalSafeLine(part.trim()));
  }, 60_000);
});
