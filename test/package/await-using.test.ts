/**
 * `await using team = await Team.open(…)` on Node 20, which has
 * `Symbol.asyncDispose` but not the syntax: TypeScript lowers it for every
 * target up to ES2025 and emits it as written for ESNext (a SyntaxError on
 * Node < 24). The real team is disposed from TypeScript's ES2022 output run
 * by plain node against dist/ (docs/LIBRARY.md states the tsconfig).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';
import { genericTaskScript, makeTeamRepo } from '../e2e/support/harness.js';
import { ROOT } from './support/examples.js';

const dir = mkdtempSync(join(tmpdir(), 'teamd-await-using-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const DIST = join(ROOT, 'dist', 'index.js');

function compileAndRun(source: string, target: ts.ScriptTarget, name: string): { js: string; out: string } {
  const js = ts.transpileModule(source, { compilerOptions: { target, module: ts.ModuleKind.ESNext } }).outputText;
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, js);
  try {
    return { js, out: execFileSync(process.execPath, [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }).trim() };
  } catch (err) {
    return { js, out: `failed: ${(err as { stderr?: string }).stderr ?? String(err)}` };
  }
}

const disposable = `
const log = [];
{
  await using r = { async [Symbol.asyncDispose]() { log.push('disposed'); } };
  log.push('body');
}
console.log(log.join(','));
`;

describe('await using on this Node', () => {
  test.each([
    ['ES2022', ts.ScriptTarget.ES2022],
    ['ES2023', ts.ScriptTarget.ES2023],
    ['ES2024', ts.ScriptTarget.ES2024],
  ] as const)('target %s: lowered, and the resource is disposed at the end of the block', (name, target) => {
    const { js, out } = compileAndRun(disposable, target, `plain-${name}`);
    expect(js).not.toMatch(/await using/);
    expect(out).toBe('body,disposed');
  });

  test('target ESNext keeps the syntax, which Node before 24 cannot parse', () => {
    const { js, out } = compileAndRun(disposable, ts.ScriptTarget.ESNext, 'plain-esnext');
    expect(js).toMatch(/await using r =/);
    if (Number(process.versions.node.split('.')[0]) < 24) expect(out).toMatch(/SyntaxError/);
  });

  test.skipIf(!existsSync(DIST))('a Team opened with await using is closed when the block ends (no dist/: run npm run build)', () => {
    const repo = makeTeamRepo({ script: genericTaskScript(), config: { teammates: [], worktrees: { mode: 'off' } } });
    try {
      const source = `
import { Team } from ${JSON.stringify(pathToFileURL(DIST).href)};
const repo = ${JSON.stringify(repo.dir)};
{
  await using team = await Team.open(repo, { idleRecheckMs: 60_000 });
  console.log('open', team.teammates().length);
}
// Closed: this process may open it again (a second open while one is open is refused).
const again = await Team.open(repo, { idleRecheckMs: 60_000 });
await again.close();
console.log('reopened');
`;
      expect(compileAndRun(source, ts.ScriptTarget.ES2022, 'team').out).toBe('open 0\nreopened');
    } finally {
      repo.cleanup();
    }
  }, 60_000);
});
