import { relative } from 'node:path';
import { configPath } from '../config/load.js';
import type { FileProblem } from '../store/types.js';

/**
 * loadConfig's error starts with the absolute file name; report it repo-relative like the rest.
 * Its own file: `status` needs it, and importing it from validate.ts pulled validate's checkers — the
 * Claude files, hooks, roles, MCP and yaml (~300 kB) — into status's bundle, loaded on every run.
 */
export function configProblem(repo: string, error: string): FileProblem {
  const file = configPath(repo);
  return {
    file: relative(repo, file),
    message: error.startsWith(`${file}: `) ? error.slice(file.length + 2) : error,
  };
}
