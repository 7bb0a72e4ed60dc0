/** `grep`: search file contents with a regular expression. */
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { currentCwd, resolveForTool, rootOf } from './context.js';
import { checkPattern } from './file-walk.js';
import { searchWithRipgrep } from './grep-ripgrep.js';
import { findRipgrep, searchInProcess, type FileMatches, type GrepQuery } from './grep-search.js';
import { displayPath } from './paths.js';
import { defineTool, type ToolContext, type ToolOutput } from './types.js';

export const GREP_LIMITS = {
  /** Default `head_limit` per output mode. */
  files: 200,
  contentLines: 400,
  counts: 200,
  maxLineChars: 500,
} as const;

const Context = z.number().int().min(0).max(50).optional();

const GrepInput = z.strictObject({
  pattern: z.string().min(1).describe('Regex (ripgrep syntax)'),
  path: z.string().optional().describe('Folder or file'),
  glob: z.string().optional().describe('e.g. `*.ts`'),
  output_mode: z
    .enum(['files_with_matches', 'content', 'count'])
    .default('files_with_matches'),
  '-i': z.boolean().optional(),
  '-n': z.boolean().optional(),
  '-A': Context,
  '-B': Context,
  '-C': Context,
  multiline: z.boolean().optional().describe('`.` matches newlines'),
  head_limit: z.number().int().min(1).optional(),
});
type GrepInput = z.infer<typeof GrepInput>;

export const grepTool = defineTool({
  name: 'grep',
  description: [
    'Search file contents by regex (content mode: lines). Prefer it to grep/rg in bash.',
  ].join('\n'),
  inputSchema: GrepInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async (input, ctx) => {
    const query = await buildQuery(input, ctx);
    if (!query.ok) return { content: query.error, isError: true };
    const rg = await findRipgrep();
    const found = rg === null ? await searchInProcess(query.value) : await searchWithRipgrep(rg, query.value);
    if (!found.ok) return { content: found.error, isError: true };
    return render(input, found.value, currentCwd(ctx));
  },
});

type Built = { ok: true; value: GrepQuery } | { ok: false; error: string };

async function buildQuery(input: GrepInput, ctx: ToolContext): Promise<Built> {
  const base = resolveForTool(ctx, input.path ?? '.');
  if (!base.ok) return base;
  if ((await stat(base.value).catch(() => null)) === null)
    return { ok: false, error: `${input.path} does not exist.` };
  const badGlob = input.glob === undefined ? null : checkPattern(input.glob);
  if (badGlob !== null) return { ok: false, error: badGlob };
  const mode = input.output_mode;
  const limit = input.head_limit ?? (mode === 'content' ? GREP_LIMITS.contentLines : GREP_LIMITS.files);
  const context =
    mode === 'content'
      ? { before: input['-B'] ?? input['-C'] ?? 0, after: input['-A'] ?? input['-C'] ?? 0 }
      : { before: 0, after: 0 };
  return {
    ok: true,
    value: {
      pattern: input.pattern,
      caseInsensitive: input['-i'] ?? false,
      multiline: input.multiline ?? false,
      base: base.value,
      root: rootOf(ctx, base.value),
      ...(input.glob === undefined ? {} : { glob: input.glob }),
      ...context,
      // Content mode caps lines, not files; a file holds at least one line, so `limit` files always suffice.
      maxFiles: limit,
      signal: ctx.signal,
    },
  };
}

function render(input: GrepInput, files: FileMatches[], cwd: string): ToolOutput {
  const summary = `grep ${input.pattern}: ${files.length} files`;
  if (files.length === 0) return { content: `No matches for ${input.pattern}.`, summary };
  const lines = renderLines(input, files, cwd);
  const limit =
    input.head_limit ?? (input.output_mode === 'content' ? GREP_LIMITS.contentLines : GREP_LIMITS.files);
  const shown = lines.slice(0, limit);
  const more =
    lines.length > limit
      ? `\n[results cut at ${limit}: narrow the pattern, path or glob, or raise head_limit]`
      : '';
  return { content: shown.join('\n') + more, summary };
}

function renderLines(input: GrepInput, files: FileMatches[], cwd: string): string[] {
  if (input.output_mode === 'files_with_matches') return files.map((f) => displayPath(cwd, f.absPath));
  if (input.output_mode === 'count') return files.map((f) => `${displayPath(cwd, f.absPath)}:${f.count}`);
  const numbered = input['-n'] ?? true;
  return files.flatMap((f) => contentLines(f, displayPath(cwd, f.absPath), numbered));
}

/** rg's layout: `path:12:text` for matches, `path-13-text` for context, `--` between separate groups. */
function contentLines(file: FileMatches, shown: string, numbered: boolean): string[] {
  const out: string[] = [];
  let previous = -1;
  for (const line of file.lines) {
    if (previous !== -1 && line.number > previous + 1) out.push('--');
    const sep = line.match ? ':' : '-';
    const text =
      line.text.length > GREP_LIMITS.maxLineChars
        ? `${line.text.slice(0, GREP_LIMITS.maxLineChars)}…`
        : line.text;
    out.push(numbered ? `${shown}${sep}${line.number}${sep}${text}` : `${shown}${sep}${text}`);
    previous = line.number;
  }
  return out;
}
