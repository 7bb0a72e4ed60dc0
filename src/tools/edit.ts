/**
 * `edit`: replace one exact piece of text in a file. The piece must occur
 * exactly once (or `replace_all`), so an edit never lands somewhere the model
 * did not mean; the answer is a unified diff of what changed.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, type ToolOutput } from './types.js';
import { resolveWritable } from './writable.js';
import { writeGuarded } from './write-guard.js';

const EditInput = z.strictObject({
  file_path: z.string().min(1),
  old_string: z
    .string()
    .describe('Exact, whitespace included'),
  new_string: z.string(),
  replace_all: z
    .boolean()
    .default(false),
});
type EditInput = z.infer<typeof EditInput>;

export const editTool = defineTool({
  name: 'edit',
  description: [
    'Replace text in a file you read; `old_string` must be unique unless `replace_all`. An empty one creates a new file.',
  ].join('\n'),
  inputSchema: EditInput,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  run: async (input, ctx) => {
    if (input.old_string === input.new_string) {
      return {
        content: 'old_string and new_string are the same: there is nothing to change.',
        isError: true,
      };
    }
    const target = await resolveWritable(ctx, input.file_path);
    if (!target.ok) return { content: target.error, isError: true };
    const { absPath, shown, exists } = target.value;
    const before = exists ? await readFile(absPath, 'utf8') : null;
    const after = applyEdit(before, input, shown);
    if (!after.ok) return { content: after.error, isError: true };
    const written = await writeGuarded(absPath, after.value, target.value.rootDev, shown);
    if (!written.ok) return { content: written.error, isError: true };
    await ctx.fileState.recordWrite(absPath);
    return await diffOutput(shown, before ?? '', after.value);
  },
});

type Applied = { ok: true; value: string } | { ok: false; error: string };

function applyEdit(before: string | null, input: EditInput, shown: string): Applied {
  if (before === null) {
    if (input.old_string === '') return { ok: true, value: input.new_string };
    return {
      ok: false,
      error: `${shown} does not exist. To create it, use write (or edit with an empty old_string).`,
    };
  }
  if (input.old_string === '') {
    return {
      ok: false,
      error: `${shown} already exists: old_string must not be empty; give the exact text to replace.`,
    };
  }
  const count = countOccurrences(before, input.old_string);
  if (count === 0) {
    return {
      ok: false,
      error: `old_string was not found in ${shown} (0 occurrences). Read the file again and copy the text exactly, including whitespace and indentation.`,
    };
  }
  if (count > 1 && !input.replace_all) {
    return {
      ok: false,
      error: `old_string occurs ${count} times in ${shown}. Include more surrounding context so it matches exactly once, or set replace_all to replace all ${count}.`,
    };
  }
  // split/join, not String.replace: a `$&` in new_string must stay literal.
  const value = input.replace_all
    ? before.split(input.old_string).join(input.new_string)
    : replaceOnce(before, input.old_string, input.new_string);
  return { ok: true, value };
}

function replaceOnce(text: string, find: string, replacement: string): string {
  const at = text.indexOf(find);
  return text.slice(0, at) + replacement + text.slice(at + find.length);
}

function countOccurrences(text: string, find: string): number {
  let count = 0;
  for (let at = text.indexOf(find); at !== -1; at = text.indexOf(find, at + find.length)) count++;
  return count;
}

/** The unified diff of the edit; `diff` is imported on the first edit, not by every agent that has the tool. */
async function diffOutput(shown: string, before: string, after: string): Promise<ToolOutput> {
  const { createTwoFilesPatch } = await import('diff');
  const patch = createTwoFilesPatch(`a/${shown}`, `b/${shown}`, before, after, undefined, undefined, {
    context: 3,
  });
  const body = patch.split('\n').slice(1).join('\n'); // drop the "====" banner line
  const added = body.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
  const removed = body.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
  return { content: `Edited ${shown}:\n${body}`, summary: `edited ${shown} (+${added} -${removed})` };
}
