/**
 * `read`: a text file with line numbers, a line range at a time. Reading is
 * what makes a later `edit`/`write` of the file allowed (see file-state.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { currentCwd, resolveForTool } from './context.js';
import { displayPath } from './paths.js';
import { defineTool, type ToolOutput } from './types.js';

export const READ_LIMITS = {
  /** Lines shown when no `limit` is given. */
  defaultLines: 2000,
  /** Longer lines are cut (minified files, data). */
  maxLineChars: 2000,
  /** Total characters of one answer; the rest is left for a next `offset`. */
  maxOutputChars: 100_000,
  /** Files bigger than this are not read at all. */
  maxFileBytes: 20 * 1024 * 1024,
} as const;

const ReadInput = z.strictObject({
  file_path: z.string().min(1),
  offset: z.number().int().min(1).optional().describe('1-based'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Lines to read (default ${READ_LIMITS.defaultLines})`),
});
type ReadInput = z.infer<typeof ReadInput>;

export const readTool = defineTool({
  name: 'read',
  description: [
    'Read a text file, lines numbered (`12\\t`, not in the file); read before editing.',
  ].join('\n'),
  inputSchema: ReadInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async (input, ctx) => {
    const cwd = currentCwd(ctx);
    const resolved = resolveForTool(ctx, input.file_path);
    if (!resolved.ok) return { content: resolved.error, isError: true };
    const shown = displayPath(cwd, resolved.value);
    const refusal = await whyUnreadable(resolved.value, shown);
    if (refusal !== null) return { content: refusal, isError: true };
    const bytes = await readFile(resolved.value);
    await ctx.fileState.recordRead(resolved.value);
    return renderFile(bytes, input, shown);
  },
});

async function whyUnreadable(absPath: string, shown: string): Promise<string | null> {
  const info = await stat(absPath).catch(() => null);
  if (info === null) return `${shown} does not exist.`;
  if (info.isDirectory()) return `${shown} is a directory: use glob, or bash \`ls\`, to list it.`;
  // A FIFO would block the read forever, a device never end: only regular files are read.
  if (!info.isFile()) return `${shown} is not a regular file (a FIFO, socket or device): it is not read.`;
  if (info.size > READ_LIMITS.maxFileBytes) {
    return `${shown} is ${info.size} bytes, more than the ${READ_LIMITS.maxFileBytes}-byte limit: use grep or bash (head, sed -n) to look inside it.`;
  }
  return null;
}

function renderFile(bytes: Buffer, input: ReadInput, shown: string): ToolOutput {
  if (bytes.subarray(0, 8000).includes(0)) {
    return { content: `${shown} looks binary (${bytes.length} bytes); it is not shown.`, isError: true };
  }
  if (bytes.length === 0) return { content: `(${shown} is empty)`, summary: `read ${shown} (empty)` };
  const lines = splitLines(bytes.toString('utf8'));
  const start = (input.offset ?? 1) - 1;
  if (start >= lines.length) {
    return {
      content: `${shown} has only ${lines.length} lines; offset ${start + 1} is past the end.`,
      isError: true,
    };
  }
  const end = Math.min(lines.length, start + (input.limit ?? READ_LIMITS.defaultLines));
  const { text, lastShown } = numberLines(lines, start, end);
  const note =
    lastShown < lines.length
      ? `\n\n[lines ${start + 1}-${lastShown} of ${lines.length}; continue with offset=${lastShown + 1}]`
      : '';
  return {
    content: text + note,
    summary: `read ${shown} (lines ${start + 1}-${lastShown} of ${lines.length})`,
  };
}

/** Numbers lines [start, end) until the output cap; returns the 1-based number of the last line shown. */
function numberLines(lines: string[], start: number, end: number): { text: string; lastShown: number } {
  const out: string[] = [];
  let size = 0;
  let index = start;
  for (; index < end; index++) {
    const line = numberLine(index + 1, lines[index] ?? '');
    if (size + line.length > READ_LIMITS.maxOutputChars && out.length > 0) break;
    out.push(line);
    size += line.length + 1;
  }
  return { text: out.join('\n'), lastShown: index };
}

function numberLine(lineNumber: number, line: string): string {
  const cut =
    line.length > READ_LIMITS.maxLineChars
      ? `${line.slice(0, READ_LIMITS.maxLineChars)}… [line cut: ${line.length} characters]`
      : line;
  return `${String(lineNumber).padStart(6)}\t${cut}`;
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop(); // the final newline ends the last line, it does not start a new one
  return lines;
}
