import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { sanitizeMemoryName } from '../../../src/agent/memory/files.js';
import { keywordSearch } from '../../../src/agent/memory/search.js';
import { restoreMemorySnapshot } from '../../../src/agent/memory/snapshots.js';
import { listMemories, memoryIndexFile, writeMemory } from '../../../src/agent/memory/store.js';
import type { MemoryEntry } from '../../../src/agent/memory/types.js';
import { tempDir } from '../support/workspace.js';

const input = (name: string, body: string, extra: Partial<{ description: string; type: string }> = {}) => ({
  name,
  description: extra.description ?? `about ${name}`,
  type: extra.type ?? 'project',
  body,
});

describe('memory files', () => {
  test('a write makes <name>.md with front matter and one index line; an overwrite snapshots first and can be undone', async () => {
    await using dir = await tempDir();
    const memory = join(dir.path, '.memory');
    const first = await writeMemory(
      memory,
      input('test-command', 'Run `npm test`.', { description: 'How to run the tests' }),
    );
    expect(first.ok && first.value.snapshot).toBe(null);
    const text = await readFile(join(memory, 'test-command.md'), 'utf8');
    expect(text).toMatch(
      /^---\nname: "test-command"\ndescription: "How to run the tests"\ntype: "project"\nupdated: "[^"]+"\n---\n\nRun `npm test`.\n$/,
    );
    expect(await readFile(memoryIndexFile(memory), 'utf8')).toBe(
      '# Memory index\n\n- [test-command](test-command.md) (project): How to run the tests\n',
    );

    const second = await writeMemory(
      memory,
      input('test-command', 'Run `npm run vitest`.', { description: 'How to run the tests' }),
    );
    const snapshot = second.ok ? second.value.snapshot! : '';
    expect(await readFile(snapshot, 'utf8')).toBe(text);
    const restored = await restoreMemorySnapshot(memory, snapshot);
    expect(restored).toEqual({ ok: true, value: ['test-command'] });
    expect(await readFile(join(memory, 'test-command.md'), 'utf8')).toBe(text);
    expect((await readdir(join(memory, '.snapshots'))).length).toBe(2); // the restore snapshotted what it replaced
  });

  test('names are sanitised with the id rules; bad fields are refused naming the field', async () => {
    expect(sanitizeMemoryName('../Bad Name!!')).toEqual({ ok: true, value: 'Bad-Name' });
    expect(sanitizeMemoryName('notes.md')).toEqual({ ok: true, value: 'notes' });
    expect(sanitizeMemoryName('MEMORY')).toMatchObject({ ok: false });
    expect(sanitizeMemoryName('///')).toMatchObject({ ok: false });
    await using dir = await tempDir();
    const written = await writeMemory(dir.path, input('../../escape', 'x'));
    expect(written.ok && written.value.entry.file).toBe(join(dir.path, 'escape.md'));
    expect(await writeMemory(dir.path, input('ok', 'x', { type: 'Not A Type' }))).toEqual({
      ok: false,
      error: 'memory ok: type: must be a lowercase word such as user, project, feedback, reference',
    });
    expect(await writeMemory(dir.path, input('ok', 'x', { description: ' ' }))).toMatchObject({ ok: false });
  });

  test('a broken file is reported and left out of the listing', async () => {
    await using dir = await tempDir();
    await writeMemory(dir.path, input('good', 'fine'));
    await writeFile(join(dir.path, 'broken.md'), '---\nname: broken\n---\nno description');
    const { entries, problems } = await listMemories(dir.path);
    expect(entries.map((e) => e.name)).toEqual(['good']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/broken\.md: .*description/);
    expect(existsSync(join(dir.path, 'broken.md'))).toBe(true);
  });

  test('keyword search ranks name over description over body', () => {
    const entry = (name: string, description: string, body: string): MemoryEntry => ({
      name,
      description,
      type: 'project',
      body,
      file: `${name}.md`,
    });
    const entries = [
      entry('deploy', 'How we ship', 'Use the release script.'),
      entry('style', 'Code style', 'Deploy previews are built per branch.'),
      entry('ci', 'Deploy pipeline notes', 'GitHub Actions.'),
      entry('unrelated', 'Nothing', 'Nothing here.'),
    ];
    expect(keywordSearch(entries, 'deploy', 10).map((e) => e.name)).toEqual(['deploy', 'ci', 'style']);
    expect(keywordSearch(entries, 'release SCRIPT', 10).map((e) => e.name)).toEqual(['deploy']);
    expect(keywordSearch(entries, '?', 10)).toEqual([]);
  });
});
