import { execFile, execFileSync } from 'node:child_process';
import { appendFile, mkdir, open, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { appendArchive, readArchive } from '../../src/store/mailbox/archive.js';
import { archiveSummary, summaryCacheOf } from '../../src/store/mailbox/archive-summary.js';
import type { Message } from '../../src/store/types.js';
import { tempRepo } from './temp-repo.js';
import { TSX_LOADER } from '../support/race/spawn-ts.js';

const SUMMARY_MODULE = fileURLToPath(new URL('../../src/store/mailbox/archive-summary.ts', import.meta.url));

/** Runs `code` as an ES module in a fresh Node process (with tsx) and returns its stdout. */
const runChild = (code: string): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', code], (err, out, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out),
    ),
  );

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => {
  repo = await tempRepo();
});
afterEach(async () => repo.cleanup());

const message = (id: string, content = `text of ${id}`): Message => ({
  id,
  from: 'lead',
  to: 'w1',
  type: 'message',
  content,
  ts: '2026-04-01T12:00:00.000Z',
  metadata: {},
});
const archivePath = (): string => join(repo.root, '.mailboxes', 'archive', 'w1.jsonl');

const STAMP_TIME = 1_780_000_000;

/** Overwrites the file's bytes in place (same inode, same size) and puts its mtime back: a stamp that did not move. */
async function rewriteKeepingStamp(file: string, text: string): Promise<void> {
  const before = await stat(file);
  const handle = await open(file, 'r+');
  await handle.write(text.padEnd(before.size, ' ').slice(0, before.size), 0);
  await handle.close();
  await utimes(file, STAMP_TIME, STAMP_TIME);
}

describe('archive summaries (what top and status read every refresh)', () => {
  it('give the same problems and latest message as a full read, for any archive', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constantFrom('a', 'b', 'c', 'd'), fc.constant('{torn')), { maxLength: 12 }),
        async (lines) => {
          const file = join(repo.root, `a-${Math.random().toString(36).slice(2)}.jsonl`);
          const text = lines.map((l) => (l === '{torn' ? l : JSON.stringify(message(l)))).join('\n');
          await appendFile(file, text === '' ? '' : `${text}\n`);
          const full = await readArchive(file, 'x');
          const summary = await archiveSummary(file, 'x');
          expect(summary.problems).toEqual(full.problems);
          expect(summary.latest).toEqual(full.messages.at(-1) ?? null);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('are parsed again only when the file changes', async () => {
    await appendArchive(archivePath(), [message('m1'), message('m2')]);
    await utimes(archivePath(), STAMP_TIME, STAMP_TIME);
    expect((await archiveSummary(archivePath(), 'w1')).latest?.id).toBe('m2');
    await rewriteKeepingStamp(archivePath(), 'not json at all');
    const unchanged = await archiveSummary(archivePath(), 'w1');
    expect(unchanged.problems).toEqual([]);
    expect(unchanged.latest?.id).toBe('m2');
    await appendArchive(archivePath(), [message('m3')]);
    const grown = await archiveSummary(archivePath(), 'w1');
    expect(grown.latest?.id).toBe('m3');
    expect(grown.problems[0]?.message).toMatch(/invalid JSON/);
  });

  it('with a cache file, a summary outlives the process that parsed it; a bad cache file is ignored', async () => {
    await mkdir(join(repo.root, '.team', 'state'), { recursive: true });
    await appendArchive(archivePath(), [message('m1'), message('m2')]);
    await utimes(archivePath(), STAMP_TIME, STAMP_TIME);
    const cache = summaryCacheOf(repo.root);
    expect((await archiveSummary(archivePath(), 'w1', cache)).latest?.id).toBe('m2');
    const saved = JSON.parse(await readFile(cache, 'utf8')) as Record<string, { latest: { id: string } }>;
    expect(saved[archivePath()]?.latest.id).toBe('m2');
    // Another process: a child reads the summary from the cache even though the archive's bytes changed in place.
    await rewriteKeepingStamp(archivePath(), 'not json at all');
    const child = await runChild(
      `const { archiveSummary } = await import(${JSON.stringify(SUMMARY_MODULE)});` +
        `const s = await archiveSummary(${JSON.stringify(archivePath())}, 'w1', ${JSON.stringify(cache)});` +
        'console.log(JSON.stringify(s));',
    );
    expect(JSON.parse(child)).toMatchObject({ problems: [], latest: { id: 'm2' } });
    await writeFile(cache, '{"x": 1, "' + archivePath() + '": {"stamp": 3}}');
    const fresh = await runChild(
      `const { archiveSummary } = await import(${JSON.stringify(SUMMARY_MODULE)});` +
        `console.log(JSON.stringify(await archiveSummary(${JSON.stringify(archivePath())}, 'w1', ${JSON.stringify(cache)})));`,
    );
    expect(JSON.parse(fresh).problems[0].message).toMatch(/invalid JSON/);
    const fifo = join(repo.root, '.team', 'state', 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    // Refused, not read (a read would block): this process's own summary answers.
    expect((await archiveSummary(archivePath(), 'w1', fifo)).latest?.id).toBe('m2');
  });

  it('serve history(agent, 1) and problems() of the store; a gone archive is empty', async () => {
    const mail = new MailboxStore(repo.root);
    await appendArchive(archivePath(), [message('m1'), message('m2'), message('m1', 'again')]);
    expect((await mail.history('w1', 1)).map((m) => m.id)).toEqual(['m2']);
    expect((await mail.history('w1')).map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(await mail.problems()).toEqual([]);
    await appendFile(archivePath(), '{torn\n');
    expect((await mail.problems()).map((p) => p.file)).toEqual([expect.stringContaining('w1.jsonl:4')]);
    expect(await archiveSummary(join(repo.root, 'none.jsonl'), 'none')).toEqual({ problems: [], latest: null });
  });
});
