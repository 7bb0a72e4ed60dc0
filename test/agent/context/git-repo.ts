/** A real git repository in a temp folder, for context tests. */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tempDir, type TempDir } from '../support/workspace.js';

export interface GitRepo extends TempDir {
  git(...args: string[]): string;
  /** Writes a file below the repository (folders created); returns its path. */
  file(rel: string, content: string): Promise<string>;
}

export async function gitRepo(prefix = 'teamd-context-'): Promise<GitRepo> {
  const dir = await tempDir(prefix);
  const git = (...args: string[]): string =>
    execFileSync('git', args, {
      cwd: dir.path,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    });
  git('init', '-q', '-b', 'main');
  const file = async (rel: string, content: string): Promise<string> => {
    const path = join(dir.path, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    return path;
  };
  return { ...dir, git, file };
}
