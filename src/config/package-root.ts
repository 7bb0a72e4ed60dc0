/**
 * Where teamd's own package is: the folder of its package.json, found from a
 * module's file — in src/ (tsx), in dist/ as tsc wrote it, or in a bundle
 * chunk of dist/cli/ (scripts/bundle-cli.mjs), where paths relative to the
 * module's own folder no longer hold. Code that starts teamd again (a
 * teammate process, `teamd mcp` for the Claude Code engine) or mounts it (the
 * sandbox) finds its files from here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const found = new Map<string, string>();

export function packageRoot(from = fileURLToPath(import.meta.url)): string {
  const start = dirname(from);
  const known = found.get(start);
  if (known) return known;
  for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
    if (isTeamdManifest(join(dir, 'package.json'))) {
      found.set(start, dir);
      return dir;
    }
  }
  throw new Error(`no teamd package.json above ${from}`);
}

function isTeamdManifest(file: string): boolean {
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'teamd';
  } catch {
    return false;
  }
}

/** The path of a module file running now (a loader's `?query` left out). */
export const modulePath = (url: string): string => fileURLToPath(url.split('?')[0]!);
