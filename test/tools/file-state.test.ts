import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStateTracker } from '../../src/tools/file-state.js';
import { createTempRoot, type TempRoot } from './temp-root.js';

describe('file state tracker', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await createTempRoot();
  });
  afterEach(async () => t.close());

  it('lets a new file be written without a read', async () => {
    const tracker = createFileStateTracker();
    expect(await tracker.checkWritable(path.join(t.root, 'new.txt'))).toBeNull();
  });

  it('refuses an existing file that was never read, and allows it after a read', async () => {
    const file = await t.file('a.txt', 'one');
    const tracker = createFileStateTracker();
    expect(await tracker.checkWritable(file)).toContain('has not been read');
    await tracker.recordRead(file);
    expect(await tracker.checkWritable(file)).toBeNull();
  });

  it('refuses a file changed on disk since the read, until it is read again', async () => {
    const file = await t.file('a.txt', 'one');
    const tracker = createFileStateTracker();
    await tracker.recordRead(file);
    await writeFile(file, 'two');
    expect(await tracker.checkWritable(file)).toContain('changed on disk');
    await tracker.recordRead(file);
    expect(await tracker.checkWritable(file)).toBeNull();
  });

  it('catches a same-size change, and ignores a touch that changes nothing', async () => {
    const file = await t.file('a.txt', 'aaa');
    const tracker = createFileStateTracker();
    await tracker.recordRead(file);
    await utimes(file, new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(await tracker.checkWritable(file)).toBeNull();
    await writeFile(file, 'bbb');
    expect(await tracker.checkWritable(file)).toContain('changed on disk');
  });

  it('knows the state the agent wrote itself', async () => {
    const file = await t.file('a.txt', 'one');
    const tracker = createFileStateTracker();
    await tracker.recordRead(file);
    await writeFile(file, 'mine');
    await tracker.recordWrite(file);
    expect(await tracker.checkWritable(file)).toBeNull();
  });
});
