/**
 * Memory files written by several processes at once: real child processes
 * race on one folder, several times. Every file must parse and hold one
 * writer's whole body, the index must list exactly the files, and no version
 * of the shared memory may be lost (each overwrite snapshotted the version
 * before it, exactly once).
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parseMemory } from '../../../src/agent/memory/files.js';
import { listMemories, memoryIndexFile, snapshotDir } from '../../../src/agent/memory/store.js';
import { tempDir } from '../support/workspace.js';

const TSX = import.meta.resolve('tsx');
const WRITER = fileURLToPath(new URL('./support/memory-writer.ts', import.meta.url));
const WRITERS = ['alpha', 'beta', 'gamma'];
const ROUNDS = 6;

function runWriter(dir: string, writer: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', TSX, WRITER, dir, writer, String(ROUNDS)], {
    stdio: 'pipe',
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

/** The version a body holds, after checking it is one writer's round from start to end. */
function versionOf(body: string): string {
  const [head, rest] = body.split('\n') as [string, string];
  expect(rest).toBe(`${head};`.repeat(2_000));
  return head;
}

describe('memory written by several processes at once', () => {
  test.each([1, 2, 3])('never corrupts a file, an index line or a version (round %i)', async () => {
    await using dir = await tempDir('teamd-memory-race-');
    const memory = join(dir.path, '.memory');
    const results = await Promise.all(WRITERS.map((w) => runWriter(memory, w)));
    for (const r of results)
      expect({ code: r.code, out: r.out.trim(), err: r.err }).toEqual({ code: 0, out: 'done', err: '' });

    const { entries, problems } = await listMemories(memory);
    expect(problems).toEqual([]);
    expect(entries).toHaveLength(WRITERS.length * ROUNDS + 1);
    for (const e of entries) versionOf(e.body);

    const index = await readFile(memoryIndexFile(memory), 'utf8');
    const listed = [...index.matchAll(/^- \[([^\]]+)\]/gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(entries.map((e) => e.name).sort());

    const snapshots = (await readdir(snapshotDir(memory))).filter((n) => n.startsWith('shared.'));
    const saved = await Promise.all(
      snapshots.map(async (n) => {
        const parsed = parseMemory(await readFile(join(snapshotDir(memory), n), 'utf8'), n);
        if (!parsed.ok) throw new Error(parsed.error);
        return versionOf(parsed.value.body);
      }),
    );
    const final = versionOf(entries.find((e) => e.name === 'shared')!.body);
    const everyVersion = WRITERS.flatMap((w) => Array.from({ length: ROUNDS }, (_, r) => `${w}:${r}`)).sort();
    expect([...saved, final].sort()).toEqual(everyVersion);
  });
});
