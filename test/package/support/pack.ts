/** What `npm pack` must ship: the build output, the tracked files of the other `files` entries, package.json and README.md. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './examples.js';

/** npm adds these whatever `files` says. */
const ALWAYS = ['package.json', 'README.md'];

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));

/** The `files` list of package.json. */
export const filesEntries = (): string[] => (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;

/** The tarball's paths as `files` promises them (dist/ as built now; the rest as git tracks it). */
export function expectedTarball(): Set<string> {
  const others = filesEntries().filter((f) => f !== 'dist');
  const tracked = execFileSync('git', ['ls-files', '--', ...others], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  const built = existsSync(join(ROOT, 'dist')) ? filesUnder(join(ROOT, 'dist')) : [];
  return new Set([...built, ...tracked, ...ALWAYS]);
}

/** `npm pack --json` output (after any script noise) → the paths in the tarball. */
export function packedPaths(out: string): { filename: string; paths: Set<string> } {
  const [packed] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  return { filename: packed!.filename, paths: new Set(packed!.files.map((f) => f.path)) };
}
