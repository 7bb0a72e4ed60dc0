/**
 * `teamd status` keeps its task section under the stamps of the board's files
 * (status-board.ts, issue 24). Whatever happens to the files between two runs
 * — rewritten in place at the same size, added, removed, an archived blocker
 * changed, the kept file broken or forged — the status must be what reading
 * the board afresh gives: the same `--json` and the same text.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { printStatus } from '../../src/cli/status.js';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { sealStatusBoard, statusBoardOf } from '../../src/observe/status-board.js';
import { readTeamStatus } from '../../src/observe/status.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { tempRepo } from '../store/temp-repo.js';
import { captureStdout } from './support/capture-stdout.js';

const config = TeamConfigSchema.parse({});
let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => {
  repo = await tempRepo();
  mkdirSync(join(repo.root, '.team', 'state'), { recursive: true });
  mkdirSync(join(repo.root, '.tasks', 'archive'), { recursive: true });
});
afterEach(async () => repo.cleanup());

const file = (id: string): string => join(repo.root, '.tasks', `${id}.json`);
const archived = (id: string): string => join(repo.root, '.tasks', 'archive', `${id}.json`);
/** Files dated a minute back and apart (only settled files are kept: see SETTLED_MS). */
let n = 0;
const settle = (path: string): void => utimesSync(path, new Date(), new Date(Date.now() - 60_000 - ++n * 1_000));
const settleAll = (ids: readonly string[]): void => ids.forEach((id) => settle(file(id)));

function taskText(id: string, subject: string, extra: Record<string, unknown> = {}): string {
  const at = '2026-11-30T10:00:00.000Z';
  return `${JSON.stringify({ id, subject, description: '', status: 'pending', owner: null, blockedBy: [], priority: 0,
    attempts: 0, lease: null, result: null, notes: [], metadata: {}, createdAt: at, updatedAt: at, ...extra }, null, 2)}\n`;
}

/** What status shows through its own path (kept section or cached read) … */
const shown = async () => (await readTeamStatus(repo.root, config)).tasks;
/** … and what a plain read of every file gives. */
const truth = async () =>
  (await readTeamStatus(repo.root, config, Date.now(), await TaskStore.open(repo.root, { normalise: false }))).tasks;
const keptBody = (): Record<string, unknown> =>
  JSON.parse(readFileSync(statusBoardOf(repo.root), 'utf8').split('\n')[1]!) as Record<string, unknown>;

function writeBoard(): string[] {
  writeFileSync(file('a'), taskText('a', 'done one', { status: 'completed', owner: 'w1', result: { summary: 'ok' } }));
  writeFileSync(file('b'), taskText('b', 'waits', { blockedBy: ['a', 'old', 'gone'] }));
  writeFileSync(file('c'), taskText('c', 'failed one', { status: 'failed', owner: 'w2', result: { summary: 's', error: 'broke' } }));
  writeFileSync(archived('old'), taskText('old', 'archived', { status: 'completed', result: { summary: 'ok' } }));
  settle(archived('old'));
  settleAll(['a', 'b', 'c']);
  return ['a', 'b', 'c'];
}

it('takes the kept section while no file changed, and gives the same JSON and text as a plain read', async () => {
  writeBoard();
  const first = await shown();
  expect(first).toEqual(await truth());
  // Forged under a valid seal: only a hit shows it (the board's files are as they were).
  const body = keptBody();
  (body.tasks as { list: { subject: string }[] }).list[0]!.subject = 'from the kept file';
  writeFileSync(statusBoardOf(repo.root), sealStatusBoard(JSON.stringify(body), String(body.board)));
  expect((await shown()).list[0]!.subject).toBe('from the kept file');
  // Back to the honest file: text and JSON exactly as a plain read prints them.
  rmSync(statusBoardOf(repo.root));
  await shown();
  const kept = await readTeamStatus(repo.root, config);
  const plain = await readTeamStatus(repo.root, config, Date.now(), await TaskStore.open(repo.root, { normalise: false }));
  expect(JSON.stringify(kept)).toBe(JSON.stringify(plain));
  expect((await captureStdout(() => printStatus(kept))).stdout).toBe((await captureStdout(() => printStatus(plain))).stdout);
});

it('sees an in-place edit of the same size, an added and a removed file, and a changed archived blocker', async () => {
  writeBoard();
  await shown();
  const before = statSync(file('b'));
  writeFileSync(file('b'), readFileSync(file('b'), 'utf8').replace('"waits"', '"WAITS"')); // same inode, same size
  expect(statSync(file('b')).ino).toBe(before.ino);
  expect(statSync(file('b')).size).toBe(before.size);
  expect((await shown()).list.find((t) => t.id === 'b')?.subject).toBe('WAITS');
  writeFileSync(file('d'), taskText('d', 'new'));
  settle(file('d'));
  expect(await shown()).toEqual(await truth());
  rmSync(file('a'));
  expect(await shown()).toEqual(await truth());
  writeFileSync(archived('old'), taskText('old', 'archived', { status: 'cancelled' }));
  settle(archived('old'));
  expect((await shown()).list.find((t) => t.id === 'b')?.waitingFor).toContain('old');
  expect(await shown()).toEqual(await truth());
  writeFileSync(archived('gone'), taskText('gone', 'now archived', { status: 'completed', result: { summary: 'ok' } }));
  settle(archived('gone'));
  expect((await shown()).list.find((t) => t.id === 'b')?.waitingFor).not.toContain('gone');
});

it('keeps nothing while a file is younger than a second (a same-size write within its tick keeps the stamp)', async () => {
  writeFileSync(file('a'), taskText('a', 'fresh'));
  expect(await shown()).toEqual(await truth());
  expect(() => statSync(statusBoardOf(repo.root))).toThrow();
  settle(file('a'));
  await shown();
  expect(keptBody().tasks).toEqual(await truth());
});

it('ignores a broken, truncated, unsealed, forged-shape or hostile kept file', async () => {
  writeBoard();
  await shown();
  const good = readFileSync(statusBoardOf(repo.root), 'utf8');
  const body = keptBody();
  const list = (body.tasks as { list: Record<string, unknown>[] }).list;
  const badShapes = [
    { ...body, tasks: { ...(body.tasks as object), list: [{ ...list[0], status: 'exploded' }] } },
    { ...body, tasks: { ...(body.tasks as object), list: [{ ...list[0], waitingFor: [1] }] } },
    { ...body, tasks: { ...(body.tasks as object), list: [{ ...list[0], extra: true }] } },
    { ...body, tasks: { counts: {}, list: [], problems: [] } },
    { ...body, tasks: null },
    { ...body, archived: { '../../etc/passwd': 'missing' } },
    [],
  ];
  const variants = [
    'garbage', '', '\n', good.slice(0, -5), good.split('\n')[1]!, `${good}x`, `{"format":"x"}\n${good.split('\n')[1]!}`,
    ...badShapes.map((b) => sealStatusBoard(JSON.stringify(b), String(body.board))),
  ];
  for (const text of variants) {
    writeFileSync(statusBoardOf(repo.root), text);
    expect(await shown()).toEqual(await truth());
  }
  rmSync(statusBoardOf(repo.root));
  mkdirSync(statusBoardOf(repo.root)); // a folder where the file goes: read and not kept, no error
  expect(await shown()).toEqual(await truth());
});

it('gives the true board after another process added and removed files while status ran', async () => {
  writeBoard();
  const script = `const fs=require('fs');const d=${JSON.stringify(join(repo.root, '.tasks'))};
    for(let i=0;i<300;i++){const f=d+'/r'+(i%7)+'.json';
      if(i%3===2)fs.rmSync(f,{force:true});
      else{fs.writeFileSync(f+'.tmp',${JSON.stringify(taskText('X', 'racer'))}.replace('"X"','"r'+(i%7)+'"'));
        const t=new Date(Date.now()-60000-i*1000);fs.utimesSync(f+'.tmp',t,t);fs.renameSync(f+'.tmp',f);}}`;
  const racer = new Promise<void>((resolve, reject) =>
    execFile(process.execPath, ['-e', script], (err) => (err ? reject(new Error(err.message)) : resolve())),
  );
  let done = false;
  void racer.finally(() => (done = true));
  while (!done) await shown();
  await racer;
  expect(await shown()).toEqual(await truth());
});

type Step =
  | { kind: 'write'; id: string; subject: string; blockedBy: string[] }
  | { kind: 'inPlace'; id: string }
  | { kind: 'bad'; id: string }
  | { kind: 'remove'; id: string }
  | { kind: 'archive'; id: string; status: 'completed' | 'cancelled' }
  | { kind: 'garbage'; text: string };
const ids = fc.constantFrom('t1', 't2', 't3', 't4');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), id: ids, subject: fc.string({ maxLength: 12 }), blockedBy: fc.array(ids, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('inPlace' as const), id: ids }),
  fc.record({ kind: fc.constant('bad' as const), id: ids }),
  fc.record({ kind: fc.constant('remove' as const), id: ids }),
  fc.record({ kind: fc.constant('archive' as const), id: ids, status: fc.constantFrom('completed' as const, 'cancelled' as const) }),
  fc.record({ kind: fc.constant('garbage' as const), text: fc.string({ maxLength: 40 }) }),
);

function apply(s: Step): void {
  if (s.kind === 'write') writeFileSync(file(s.id), taskText(s.id, s.subject, { blockedBy: s.blockedBy.filter((b) => b !== s.id) }));
  else if (s.kind === 'inPlace') {
    // `echo > file` at the same size: one character of the subject flipped, same inode.
    try {
      const text = readFileSync(file(s.id), 'utf8');
      writeFileSync(file(s.id), text.replace(/"subject": "(.)/, (_m, c: string) => `"subject": "${c === 'x' ? 'y' : 'x'}`));
    } catch {
      return;
    }
  } else if (s.kind === 'bad') writeFileSync(file(s.id), '{"subject": ');
  else if (s.kind === 'remove') rmSync(file(s.id), { force: true });
  else if (s.kind === 'archive') {
    writeFileSync(`${archived(s.id)}.tmp`, taskText(s.id, 'archived', { status: s.status, result: { summary: 'ok' } }));
    renameSync(`${archived(s.id)}.tmp`, archived(s.id));
    settle(archived(s.id));
    return;
  } else return writeFileSync(statusBoardOf(repo.root), s.text);
  try {
    settle(file(s.id));
  } catch {
    // removed
  }
}

it('always shows what a plain read shows, whatever is written, edited, broken, archived or removed between runs', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { maxLength: 10 }), async (steps) => {
      rmSync(join(repo.root, '.tasks'), { recursive: true, force: true });
      rmSync(statusBoardOf(repo.root), { force: true });
      mkdirSync(join(repo.root, '.tasks', 'archive'), { recursive: true });
      for (const s of steps) {
        apply(s);
        const plain = await truth();
        expect(await shown()).toEqual(plain);
        expect(await shown()).toEqual(plain); // the second run takes what the first kept
      }
    }),
    { numRuns: 15 },
  );
});
