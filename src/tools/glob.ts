/** `glob`: file paths matching a pattern, newest first. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { currentCwd } from './context.js';
import { checkPattern, findFiles } from './file-walk.js';
import { displayPath, resolveInside } from './paths.js';
import { defineTool } from './types.js';

export const GLOB_LIMITS = { maxResults: 200 } as const;

const GlobInput = z.strictObject({
  pattern: z.string().min(1).describe('A glob such as `**/*.ts` or `src/**/test-*.js`, relative to `path`.'),
  path: z.string().optional().describe('The folder to search in (default: the current directory).'),
  sort: z
    .enum(['mtime', 'name'])
    .default('mtime')
    .describe('`mtime`: most recently modified first (default); `name`: by path.'),
});

export const globTool = defineTool({
  name: 'glob',
  description: [
    'Find files by name pattern (`**/*.ts`, `src/**/*.test.ts`, `*.{json,yaml}`). Returns paths, newest first.',
    `Skips .git and node_modules; at most ${GLOB_LIMITS.maxResults} results. Use grep to search file contents.`,
  ].join('\n'),
  inputSchema: GlobInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async (input, ctx) => {
    const cwd = currentCwd(ctx);
    const badPattern = checkPattern(input.pattern);
    if (badPattern !== null) return { content: badPattern, isError: true };
    const base = resolveInside(ctx.root, cwd, input.path ?? '.');
    if (!base.ok) return { content: base.error, isError: true };
    const info = await stat(base.value).catch(() => null);
    if (!info?.isDirectory()) return { content: `${input.path ?? '.'} is not a folder.`, isError: true };
    const files = await findFiles(ctx.root, base.value, [input.pattern], ctx.signal);
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
