/**
 * `teamd status` loads its whole code-cached bundle on every run (the code
 * cache's deserialisation and every module's top level), so the bundle holds
 * what status runs: not `validate`'s checkers (Claude files, hooks, roles,
 * MCP) nor yaml, which came in through one helper (configProblem, now in
 * src/cli/config-problem.ts) and were a quarter of its 947 kB. A stale build
 * is a skip line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MAIN, staleBuild } from './support/built.js';

it("teamd status's bundle holds neither yaml nor validate's checkers", (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const text = readFileSync(join(MAIN, '..', 'cached-status.cjs'), 'utf8');
  const modules = [...text.matchAll(/^\/\/ ((?:dist|node_modules)\/\S+)$/gm)].map((m) => m[1]!);
  expect(modules).toContain('dist/observe/status.js');
  expect(modules.filter((m) => m.startsWith('node_modules/yaml/'))).toEqual([]);
  expect(modules.filter((m) => /^dist\/(cli\/validate|agent|hooks\/settings)/.test(m))).toEqual([]);
  expect(text.length).toBeLessThan(800_000);
});
