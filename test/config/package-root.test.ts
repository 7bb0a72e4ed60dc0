/**
 * Code that starts teamd again (a teammate process, `teamd mcp` for the
 * Claude Code engine) must find teamd's files from wherever it runs: src/
 * under tsx, dist/ as tsc wrote it, or a bundle chunk in dist/cli/ — where a
 * path relative to the module's own folder points outside the package.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { packageRoot } from '../../src/config/package-root.js';
import { teamdCommand } from '../../src/teammate/engines/claude-code/env.js';
import { stdioTeammateCommand } from '../../src/teammate/hosts/process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
const CHUNK = join(ROOT, 'dist', 'cli', 'bundle-chunk-ABC123.js');
const tmp = mkdtempSync(join(tmpdir(), 'teamd-root-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it.each([
  ['src/', join(ROOT, 'src', 'teammate', 'hosts', 'process.ts')],
  ['dist/ as tsc wrote it', join(ROOT, 'dist', 'teammate', 'hosts', 'process.js')],
  ['a bundle chunk of dist/cli/', CHUNK],
])('from %s, the package root is the folder of teamd’s package.json', (_where, from) => {
  expect(packageRoot(from)).toBe(ROOT);
});

it('from a bundle chunk, a teammate process and the engine’s `teamd mcp` start the built CLI', () => {
  expect(stdioTeammateCommand(CHUNK).args).toEqual([join(ROOT, 'dist', 'cli', 'main.js'), 'teammate', '--stdio']);
  expect(teamdCommand(CHUNK).args).toEqual([join(ROOT, 'dist', 'cli', 'main.js')]);
});

it('from source, both run the TypeScript entries through tsx', () => {
  const from = join(ROOT, 'src', 'teammate', 'hosts', 'process.ts');
  expect(stdioTeammateCommand(from).args.at(-1)).toBe(join(ROOT, 'src', 'teammate', 'hosts', 'stdio-main.ts'));
  expect(teamdCommand(join(ROOT, 'src', 'teammate', 'engines', 'claude-code', 'env.ts')).args.at(-1)).toBe(join(ROOT, 'src', 'cli', 'main.ts'));
});

it('a package.json of another name (or a broken one) on the way up is passed over; none at all is an error naming the file', () => {
  const inner = join(tmp, 'teamd-like', 'node_modules', 'x');
  mkdirSync(inner, { recursive: true });
  writeFileSync(join(tmp, 'teamd-like', 'package.json'), '{"name":"teamd"}');
  writeFileSync(join(tmp, 'teamd-like', 'node_modules', 'package.json'), '{ broken');
  writeFileSync(join(inner, 'package.json'), '{"name":"x"}');
  expect(packageRoot(join(inner, 'index.js'))).toBe(join(tmp, 'teamd-like'));
  expect(() => packageRoot(join(tmp, 'nowhere.js'))).toThrow(/no teamd package\.json above .*nowhere\.js/);
});
