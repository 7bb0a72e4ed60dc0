/** `glob`: file paths matching a pattern, newest first. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { currentCwd, resolveForTool, rootOf } from './context.js';
import { checkPattern, findFiles } from './file-walk.js';
import { displayPath } from './paths.js';
import { defineTool } from './types.js';

export const GLOB_LIMITS = { maxResults: 200 } as const;

const GlobInput = z.strictObject({
  pattern: z.string().min(1).describe('e.g. `src/**/*.ts`'),
  path: z.string().optional().describe('Folder (default: current)'),
  sort: z
    .enum(['mtime', 'name'])
    .default('mtime')
    .describe('mtime: newest first'),
});

export const globTool = defineTool({
  name: 'glob',
  description: [
    `Find files by glob (skips .git, node_modules; at most ${GLOB_LIMITS.maxResults}).`,
  ].join('\n'),
  inputSchema: GlobInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async (input, ctx) => {
    const cwd = currentCwd(ctx);
    const badPattern = checkPattern(input.pattern);
    if (badPattern !== null) return { content: badPattern, isError: true };
    const base = resolveForTool(ctx, input.path ?? '.');
    if (!base.ok) return { content: base.error, isError: true };
    const info = await stat(base.value).catch(() => null);
    if (!info?.isDirectory()) return { content: `${input.path ?? '.'} is not a folder.`, isError: true };
    const files = await findFiles(rootOf(ctx, base.value), base.value, [input.pattern], ctx.signal);
    files.sort(
      input.sort === 'name' ? (a, b) => a.absPath.localeCompare(b.absPath) : (a, b) => b.mtimeMs - a.mtimeMs,
    );
    const shown = files.slice(0, GLOB_LIMITS.maxResults).map((f) => displayPath(cwd, f.absPath));
    const where = displayPath(cwd, base.value);
    if (shown.length === 0) {
      const place = where === '.' ? 'the current directory' : where;
      return {
        content: `No files match ${input.pattern} in ${place}.`,
        summary: `glob ${input.pattern}: 0 files`,
      };
    }
    const more =
      files.length > shown.length
        ? `\n[${files.length - shown.length} more not shown: narrow the pattern or the path]`
        : '';
    return {
      content: shown.join('\n') + more,
      summary: `glob ${path.join(where, input.pattern)}: ${files.length} files`,
    };
  },
});
