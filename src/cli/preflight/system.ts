/**
 * The machine, for `teamd doctor`: Node and git versions, inotify limits (the
 * lead watches one folder per watch), disk space, hook commands that cannot
 * start, and tmux (the `top` tests drive a real terminal through it).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { TeamConfig } from '../../config/schema.js';
import { loadHookSettings } from '../../hooks/index.js';
import { failed, ok, warn, type Check } from './types.js';

const run = promisify(execFile);

export function checkNode(version = process.versions.node): Check {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const good = major >= 22 || (major === 20 && minor >= 19) || major === 21;
  return good
    ? ok('node', `v${version}`)
    : failed('node', `v${version} is too old`, 'install Node 20.19 or later (package.json engines)');
}

export async function checkGitVersion(): Promise<Check> {
  try {
    const { stdout } = await run('git', ['--version']);
    const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(stdout) ?? []).slice(1).map(Number);
    const good = major > 2 || (major === 2 && minor >= 25);
    return good
      ? ok('git', stdout.trim())
      : warn('git', `${stdout.trim()} is old`, 'install git 2.25 or later (worktrees)');
  } catch {
    return failed('git', 'git is not on PATH', 'install git');
  }
}

export function checkInotify(read = (f: string) => readFileSync(f, 'utf8')): Check {
  try {
    const watches = Number(read('/proc/sys/fs/inotify/max_user_watches'));
    const instances = Number(read('/proc/sys/fs/inotify/max_user_instances'));
    const detail = `max_user_watches ${watches}, max_user_instances ${instances}`;
    if (watches < 8192 || instances < 16)
      return warn(
        'inotify',
        detail,
        'raise them: sysctl fs.inotify.max_user_watches=524288 fs.inotify.max_user_instances=512',
      );
    return ok('inotify', detail);
  } catch {
    return ok('inotify', 'not Linux (no inotify limits to check)');
  }
}

export async function checkDisk(repoRoot: string): Promise<Check> {
  const s = await statfs(repoRoot);
  const free = s.bavail * s.bsize;
  const gib = (free / 2 ** 30).toFixed(1);
  if (free < 200 * 2 ** 20)
    return failed(
      'disk',
      `${gib} GiB free in ${repoRoot}`,
      'free some space: every task gets its own worktree',
    );
  if (free < 2 * 2 ** 30)
    return warn('disk', `${gib} GiB free in ${repoRoot}`, 'worktrees need room: free some space');
  return ok('disk', `${gib} GiB free`);
}

export async function checkTmux(): Promise<Check> {
  try {
    const { stdout } = await run('tmux', ['-V']);
    return ok('tmux', stdout.trim());
  } catch {
    return warn('tmux', 'not installed', 'only the `teamd top` terminal tests need it: apt-get install tmux');
  }
}

/** Each hook command's program must exist: a hook that cannot start blocks nothing and says little. */
export async function checkHooks(repoRoot: string, config: TeamConfig): Promise<Check> {
  const loaded = await loadHookSettings(repoRoot, config.hooks, { pluginDirs: config.plugins ?? [] });
  const hooks = Object.values(loaded.settings).flatMap((ms) =>
    (ms ?? []).flatMap((m) => m.hooks.flatMap((h) => (h.type === 'command' ? [h] : []))),
  );
  const commands = [...new Set(hooks.map((h) => h.command))];
  const missing: string[] = [];
  for (const hook of new Map(hooks.map((h) => [`${h.pluginRoot ?? ''}\0${h.command}`, h])).values())
    if (!(await startable(hook.command, repoRoot, hook.pluginRoot))) missing.push(hook.command);
  const problems = [...loaded.problems, ...missing.map((c) => `cannot start: ${c}`)];
  if (problems.length)
    return failed(
      'hooks',
      problems.join('; '),
      'fix the hook commands in .claude/settings.json or the hooks of .team/config.json',
    );
  return ok('hooks', commands.length ? `${commands.length} command(s), all startable` : 'none');
}

async function startable(command: string, repoRoot: string, pluginRoot?: string): Promise<boolean> {
  const first = command
    .trim()
    .split(/\s+/)
    .find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  if (!first) return false;
  const program = first
    .replace(/^["']|["']$/g, '')
    .replaceAll('$CLAUDE_PROJECT_DIR', repoRoot)
    .replaceAll('${CLAUDE_PROJECT_DIR}', repoRoot)
    .replaceAll('${CLAUDE_PLUGIN_ROOT}', pluginRoot ?? '$CLAUDE_PLUGIN_ROOT')
    .replaceAll('$CLAUDE_PLUGIN_ROOT', pluginRoot ?? '$CLAUDE_PLUGIN_ROOT');
  if (program.includes('$')) return true; // other variables: not knowable here
  try {
    await run('sh', ['-c', 'command -v "$1"', 'sh', program], { cwd: repoRoot });
    return true;
  } catch {
    return false;
  }
}
