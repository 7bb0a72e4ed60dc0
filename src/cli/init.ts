import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { writeDefaultConfig } from '../config/load.js';
import { writeFileAtomic } from '../store/atomic.js';
import { teamPaths } from '../store/paths.js';
import { printLine } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

/** What git should never see: worktrees and the daemon's runtime state. */
const IGNORED = ['.worktrees/', '.team/state/', '.locks/'];

export function registerInitCommand(program: Command): void {
  addDirOption(
    program
      .command('init')
      .description('create .tasks/ .mailboxes/ .cron/ .team/ and a starter .team/config.json (idempotent)'),
  ).action(async (options: DirOption) => {
    const repo = resolveRepoDir(options);
    const created = await initTeam(repo);
    printLine(created.length ? `initialised ${repo}: ${created.join(', ')}` : `already initialised: ${repo}`);
  });
}

/** Creates whatever is missing and returns what it created (nothing on a second run). */
export async function initTeam(repo: string): Promise<string[]> {
  const paths = teamPaths(repo);
  const created: string[] = [];
  for (const [name, folder] of [
    ['.tasks/', paths.tasks],
    ['.mailboxes/', paths.archive],
    ['.cron/', paths.cron],
    ['.team/state/', paths.state],
  ] as const) {
    if (!existsSync(folder)) created.push(name);
    await mkdir(folder, { recursive: true });
  }
  if (await writeDefaultConfig(repo)) created.push('.team/config.json');
  if (await ignoreInGit(repo)) created.push('.gitignore entries');
  return created;
}

/** Appends the missing IGNORED lines to `.gitignore`; true when it changed the file. */
async function ignoreInGit(repo: string): Promise<boolean> {
  const file = join(repo, '.gitignore');
  const text = await readFile(file, 'utf8').catch(() => '');
  const present = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = IGNORED.filter((line) => !present.has(line) && !present.has(line.slice(0, -1)));
  if (!missing.length) return false;
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  await writeFileAtomic(file, `${text}${separator}${missing.join('\n')}\n`);
  return true;
}
