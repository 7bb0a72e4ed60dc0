/**
 * Gitignore-style globs for path rules (`Edit(src/**)`, `Read(.env)`):
 * - no slash (`*.env`): the name at any depth;
 * - a slash inside or in front (`src/*.ts`, `/build`): relative to the root;
 * - `//abs/path` an absolute path, `~/x` under the home folder;
 * - `**` any number of folders, `*` and `?` within one name, `{a,b}` either;
 * - a folder pattern covers everything below it (`docs` matches `docs/a/b.md`).
 */
import os from 'node:os';
import path from 'node:path';

export interface PathGlob {
  /** True when the pattern matches this file. `rel` is relative to root (null when the file is outside root). */
  matches(absPath: string, rel: string | null): boolean;
}

export function compilePathGlob(pattern: string): PathGlob {
  if (pattern.startsWith('//')) return absoluteGlob(pattern.slice(1));
  if (pattern.startsWith('~/')) return absoluteGlob(path.join(os.homedir(), pattern.slice(2)));
  const anchored = pattern.startsWith('/') || pattern.replace(/\/$/, '').includes('/');
  const body = pattern.replace(/^\//, '').replace(/\/$/, '/**');
  const regex = globToRegex(anchored ? body : `**/${body}`);
  return { matches: (_abs, rel) => rel !== null && withAncestors(rel).some((p) => regex.test(p)) };
}

function absoluteGlob(pattern: string): PathGlob {
  const regex = globToRegex(pattern.replace(/\/$/, '/**'));
  return { matches: (abs) => withAncestors(abs).some((p) => regex.test(p)) };
}

/** `a/b/c` → `a/b/c`, `a/b`, `a`: a pattern naming a folder covers what is in it. */
function withAncestors(p: string): string[] {
  const out: string[] = [];
  for (let current = p; current !== '' && current !== '/' && current !== '.'; current = path.dirname(current))
    out.push(current);
  return out;
}

export function globToRegex(glob: string): RegExp {
  return new RegExp(`^${globToSource(glob)}$`);
}

function globToSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (glob.startsWith('**/', i)) {
      out += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      out += '.*';
      i += 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      const close = glob.indexOf('}', i);
      if (close === -1) out += '\\{';
      else {
        out += `(?:${glob
          .slice(i + 1, close)
          .split(',')
          .map(globToSource)
          .join('|')})`;
        i = close;
      }
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close === -1) out += '\\[';
      else {
        out += `[${glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else out += escapeRegex(c);
  }
  return out;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
