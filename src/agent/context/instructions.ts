/**
 * Project instructions, read the way Claude Code reads its memory files:
 *
 * 1. the user's `~/.claude/CLAUDE.md`;
 * 2. in every folder from the project root down to the cwd (outermost first,
 *    so the most specific come last): the configured names (`AGENTS.md`,
 *    `CLAUDE.md`), then `.claude/CLAUDE.md`, then `CLAUDE.local.md`;
 * 3. after each file, the files it imports with `@path` (relative to the
 *    importing file, `~/…` from the home folder, or absolute), themselves
 *    importing up to 5 hops deep. A `@` inside a code span or a fenced code
 *    block is not an import; an import that names no file is left as text.
 *
 * Each real file is read once (by its real path), so a `CLAUDE.md` that links
 * to `AGENTS.md`, or two files importing the same one, inject it once. Files
 * are read only inside the project root or the home folder; a project
 * file reaches into the home folder only for Markdown under `~/.claude/`
 * (see `baseFor`).
 */
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readRepoFile, REPO_FILE_LIMITS } from '../../store/repo-file.js';

export interface InstructionFile {
  /** Relative to the project root; `~/…` under the home folder; else absolute. */
  path: string;
  text: string;
}

/** Claude Code's limit on import hops. */
export const MAX_IMPORT_DEPTH = 5;

export interface InstructionSources {
  /** The user's `.claude` folder (holding `CLAUDE.md`; inside `home`); default `<home>/.claude`; null for none. */
  userDir?: string | null;
  /** The home folder, for `@~/…` imports; default `os.homedir()`. */
  home?: string;
}

/** Folders from `root` down to `cwd` (just `root` when `cwd` is not inside it). */
export function foldersDownTo(root: string, cwd: string): string[] {
  const rel = relative(root, cwd);
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return [root];
  const parts = rel.split(sep);
  return [root, ...parts.map((_, i) => join(root, ...parts.slice(0, i + 1)))];
}

/** Most candidates do not exist: asked without an exception (their stack traces cost more than the read). */
export async function readIfPresent(file: string, root = '/'): Promise<string | null> {
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return null;
  // A regular file (or a link to one inside `root`) within the cap: anything swapped in meanwhile is refused.
  const read = await readRepoFile(file, root, REPO_FILE_LIMITS.config);
  return read.kind === 'text' ? read.text : null;
}

const inside = (dir: string, file: string): boolean => {
  const rel = relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** The text without fenced code blocks and code spans, where `@` is never an import. */
export function withoutCode(text: string): string {
  return text
    .replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1?\2[^\n]*$|(?![\s\S]))/gm, '')
    .replace(/(`+)[\s\S]*?\1/g, '');
}

const IMPORT = /(?:^|\s)@((?:~\/|\/|\.{1,2}\/)?[^\s`'"<>()[\]{}]+)/g;

/** The `@path` imports of a text, as written, in order. */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const match of withoutCode(text).matchAll(IMPORT)) found.push(match[1]!.replace(/[.,;:!?]+$/, ''));
  return found;
}

interface Walk {
  root: string;
  home: string;
  seen: Set<string>;
  out: InstructionFile[];
}

function shownPath(walk: Walk, file: string): string {
  if (inside(walk.root, file)) return relative(walk.root, file);
  if (inside(walk.home, file)) return `~/${relative(walk.home, file)}`;
  return file;
}

function realOf(file: string): string | null {
  try {
    return realpathSync(file);
  } catch {
    return null;
  }
}

/**
 * Where an import may lead. The user's own files (`~/.claude/CLAUDE.md` and
 * what it imports) may read anything in the home folder. A file of the
 * project is untrusted (a teammate or a cloned repository may write it): it
 * reads inside the project root, and in the home folder only Markdown files
 * under `~/.claude/` that are not hidden (Claude Code's "personal
 * instructions" import), so `@~/.ssh/id_rsa` or `@~/.claude/.credentials.json`
 * never reaches the model.
 */
type Scope = 'user' | 'project';

function baseFor(walk: Walk, file: string, scope: Scope): string | null {
  if (inside(walk.root, file)) return walk.root;
  if (!inside(walk.home, file)) return null; // outside the project and the home folder
  if (scope === 'user') return walk.home;
  const personal = join(walk.home, '.claude');
  const name = relative(personal, file);
  const hidden = name.split(sep).some((part) => part.startsWith('.'));
  return inside(personal, file) && !hidden && file.endsWith('.md') ? personal : null;
}

async function addFile(walk: Walk, file: string, depth: number, scope: Scope): Promise<void> {
  const real = realOf(file);
  if (real === null || walk.seen.has(real)) return;
  const base = baseFor(walk, file, scope);
  if (base === null) return;
  const text = await readIfPresent(file, base);
  if (text === null) return;
  walk.seen.add(real);
  if (text.trim() !== '') walk.out.push({ path: shownPath(walk, file), text: text.trim() });
  if (depth >= MAX_IMPORT_DEPTH) return;
  for (const target of importsOf(text)) {
    const path = target.startsWith('~/') ? join(walk.home, target.slice(2)) : resolve(dirname(file), target);
    await addFile(walk, path, depth + 1, scope);
  }
}

export async function instructionChain(
  root: string,
  cwd: string,
  names: string[],
  sources: InstructionSources = {},
): Promise<InstructionFile[]> {
  const home = sources.home ?? homedir();
  const walk: Walk = { root, home, seen: new Set(), out: [] };
  const userDir = sources.userDir === undefined ? join(home, '.claude') : sources.userDir;
  if (userDir !== null) await addFile(walk, join(userDir, 'CLAUDE.md'), 0, 'user');
  for (const folder of foldersDownTo(root, cwd))
    for (const name of [...names, join('.claude', 'CLAUDE.md'), 'CLAUDE.local.md'])
      await addFile(walk, join(folder, name), 0, 'project');
  return walk.out;
}
