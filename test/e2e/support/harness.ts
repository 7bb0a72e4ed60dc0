/**
 * A real team in a temp git repository: real files, real git, real worker
 * threads, a scripted model. Tests wait on the lead's events, never on sleeps.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { Lead, type LeadOptions } from '../../../src/lead/lead.js';
import type { LoggedEvent } from '../../../src/observe/types.js';
import type { ScriptInput } from '../../../src/model/scripted/schema.js';

export interface TeamRepo {
  dir: string;
  scriptPath: string;
  writeTask(id: string, task: { subject: string; blockedBy?: string[]; owner?: string; description?: string }): void;
  git(...args: string[]): string;
  cleanup(): void;
}

export function makeTeamRepo(opts: { script: ScriptInput; config?: Record<string, unknown> }): TeamRepo {
  const dir = mkdtempSync(join(tmpdir(), 'teamd-e2e-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'test');
  git('config', 'user.email', 'test@example.invalid');
  writeFileSync(join(dir, 'README.md'), '# test repo\n');
  writeFileSync(join(dir, '.gitignore'), '.worktrees/\n.team/state/\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  const scriptPath = join(dir, '.team', 'script.json');
  mkdirSync(join(dir, '.team'), { recursive: true });
  writeFileSync(scriptPath, JSON.stringify(opts.script, null, 2));
  const config = { model: `scripted:${scriptPath}`, leaseMs: 20_000, ...opts.config };
  writeFileSync(join(dir, '.team', 'config.json'), JSON.stringify(config, null, 2));
  mkdirSync(join(dir, '.tasks'), { recursive: true });
  return {
    dir,
    scriptPath,
    git,
    writeTask: (id, task) => writeFileSync(join(dir, '.tasks', `${id}.json`), JSON.stringify(task)),
    // retries: a git process the lead started may still be closing its files in .git (ENOTEMPTY)
    cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }),
  };
}

/** A started lead that records every event, for assertions and waits. */
export async function startLead(repo: TeamRepo, options: Partial<LeadOptions> = {}): Promise<{ lead: Lead; events: LoggedEvent[] }> {
  const events: LoggedEvent[] = [];
  const started = await Lead.start({ repoRoot: repo.dir, idleRecheckMs: 1_000, onEvent: (e) => events.push(e), ...options });
  if (!started.ok) throw new Error(started.error);
  return { lead: started.value, events };
}

/** Resolves when `check()` holds, re-checking on every event of the lead (and every 200 ms as a safety net). */
export function until(lead: Lead, check: () => boolean, timeoutMs = 60_000, what = 'condition'): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check()) return resolve();
    const done = (err?: Error) => {
      off();
      clearInterval(poll);
      clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    };
    const off = lead.onEvent(() => check() && done());
    const poll = setInterval(() => check() && done(), 200);
    const timer = setTimeout(() => done(new Error(`timed out waiting for ${what}`)), timeoutMs);
  });
}

/** A script whose one set of rules does any task named `t<N>`: write out/<id>.txt, then report. */
export function genericTaskScript(extra: ScriptInput['rules'] = []): ScriptInput {
  return {
    rules: [
      ...(extra ?? []),
      {
        name: 'write the task file',
        conversation: 'Task (\\S+):',
        turn: 0,
        times: 'always',
        content: [{ type: 'tool_use', name: 'write', input: { file_path: 'out/$1.txt', content: 'done $1\n' } }],
      },
      { name: 'report', conversation: 'Task (\\S+):', turn: 1, times: 'always', content: [{ type: 'text', text: 'wrote out/$1.txt' }] },
      { name: 'mail', conversation: 'You have new messages', times: 'always', content: [{ type: 'text', text: 'Noted.' }] },
    ],
  };
}

/**
 * One repository and one lead per test: registers an `afterEach` that stops
 * the lead and removes the repository, and returns the setters a test hands
 * them to (`const r = team.repo(makeTeamRepo(…))`).
 */
export function teamPerTest(): { repo: (r: TeamRepo) => TeamRepo; lead: (l: Lead) => Lead } {
  let repo: TeamRepo | undefined;
  let lead: Lead | undefined;
  afterEach(async () => {
    await lead?.stop('test over');
    lead = undefined;
    repo?.cleanup();
    repo = undefined;
  });
  return { repo: (r) => (repo = r), lead: (l) => (lead = l) };
}
