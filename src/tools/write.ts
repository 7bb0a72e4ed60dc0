/** `write`: create a file or replace an existing one (which must have been read first). */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from './types.js';
import { resolveWritable } from './writable.js';
import { writeGuarded } from './write-guard.js';

const WriteInput = z.strictObject({
  file_path: z.string().min(1),
  content: z.string(),
});

export const writeTool = defineTool({
  name: 'write',
  description: [
    'Create or overwrite a file; read an existing one first (prefer `edit`).',
  ].join('\n'),
  inputSchema: WriteInput,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  run: async (input, ctx) => {
    const target = await resolveWritable(ctx, input.file_path);
    if (!target.ok) return { content: target.error, isError: true };
    const { absPath, shown, exists } = target.value;
    await mkdir(path.dirname(absPath), { recursive: true });
    // In place, not tmp+rename: keeps the file's mode (an executable script stays executable).
    const written = await writeGuarded(absPath, input.content, target.value.rootDev, shown);
    if (!written.ok) return { content: written.error, isError: true };
    await ctx.fileState.recordWrite(absPath);
    const lines = input.content === '' ? 0 : input.content.split('\n').length;
    const verb = exists ? 'Overwrote' : 'Created';
    return {
      content: `${verb} ${shown} (${lines} lines, ${Buffer.byteLength(input.content)} bytes).`,
      summary: `${verb.toLowerCase()} ${shown}`,
    };
  },
});
