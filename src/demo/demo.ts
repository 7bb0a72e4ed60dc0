/**
 * `teamd demo`: the main job in miniature. A small library (textkit) is laid
 * out in a fresh git repository; the lead plans five tasks with dependencies;
 * three teammates claim them in parallel, each in its own worktree, edit
 * files, run the tests, message each other, and every branch is merged back
 * through the merge queue, verified by the library's own tests.
 * Without ANTHROPIC_API_KEY (or with --model scripted:…) the model is the
 * bundled script, so the demo runs offline and the same every time.
 */
import type { HostKind } from '../teammate/hosts/types.js';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../store/atomic.js';
import { runGoal } from '../lead/goal.js';
import { formatSummary, type RunSummary } from '../lead/summary.js';
import { formatEvent } from '../observe/format-event.js';
import type { LoggedEvent } from '../observe/types.js';

export const DEMO_GOAL = 'Fix the slugify bug in textkit, add wordCount and truncate helpers, export them all, and document the API.';

// Relative to ../demo/, not ./: the bundled CLI (dist/cli/) runs this code from one folder over.
export const demoScriptPath = (): string => fileURLToPath(new URL('../demo/scripts/demo.json', import.meta.url));
const fixtureDir = (): string => fileURLToPath(new URL('../demo/fixture', import.meta.url));

export interface DemoOptions {
  dir?: string;
  model?: string;
  teammates?: number;
  /** Save the model's answers as a replayable script. */
  record?: string;
  /** Where the teammates run (`--host`; default: threads). */
  host?: HostKind;
  out: (line: string) => void;
}

export type DemoResult = { ok: true; dir: string; summary: RunSummary } | { ok: false; error: string };

export function defaultDemoModel(env = process.env): string {
  return env.ANTHROPIC_API_KEY ? 'claude-sonnet-5-5' : `scripted:${demoScriptPath()}`;
}

/** Lays out the demo repository: the fixture, committed on `main`, and a team config. */
export async function prepareDemoRepo(dir: string, model: string, teammates: number, host?: HostKind): Promise<void> {
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length > 0) throw new Error(`${dir} is not empty; give --dir an empty or new folder`);
  cpSync(fixtureDir(), dir, { recursive: true });
  renameSync(join(dir, 'gitignore.txt'), join(dir, '.gitignore'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'teamd demo');
  git('config', 'user.email', 'demo@teamd.local');
  git('add', '-A');
  git('commit', '-q', '-m', 'textkit: initial import');
  const config = {
    model,
    teammates: Array.from({ length: teammates }, (_, i) => ({ name: `worker-${i + 1}`, maxTurns: 12 })),
    lead: { agent: true },
    worktrees: { mode: 'per-task', verify: 'node --test test/' },
    // Edits inside a worktree run; of commands, only node runs unasked. Anything else
    // would wait in `teamd approvals` (and be denied after approvalTimeoutMs).
    permissions: { defaultMode: 'acceptEdits', allow: ['Bash(node:*)'] },
    leaseMs: 30_000,
    ...(host === undefined ? {} : { host: { kind: host } }),
  };
  await writeFileAtomic(join(dir, '.team', 'config.json'), JSON.stringify(config, null, 2) + '\n');
}

export async function runDemo(opts: DemoOptions): Promise<DemoResult> {
  const dir = resolve(opts.dir ?? mkdtempSync(join(tmpdir(), 'teamd-demo-')));
  if (opts.dir && existsSync(dir) && readdirSync(dir).length > 0) return { ok: false, error: `${dir} is not empty; give --dir an empty or new folder` };
  const model = opts.model ?? defaultDemoModel();
  await prepareDemoRepo(dir, model, opts.teammates ?? 3, opts.host);
  opts.out(`teamd demo in ${dir}`);
  opts.out(`model: ${model.startsWith('scripted:') ? 'the bundled script (offline; set ANTHROPIC_API_KEY for a real model)' : model}`);
  opts.out(`goal: ${DEMO_GOAL}`);
  const started = Date.now();
  const print = (e: LoggedEvent) => {
    const line = formatEvent(e);
    if (line) opts.out(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}`);
  };
  const run = await runGoal({ repoRoot: dir, goal: DEMO_GOAL, record: opts.record, onEvent: print, idleRecheckMs: 2_000, timeoutMs: 10 * 60_000 });
  if (!run.ok) return run;
  opts.out('');
  opts.out(formatSummary(run.summary));
  opts.out('');
  opts.out('Merged into teamd/integration:');
  opts.out(execFileSync('git', ['log', '--oneline', '--first-parent', 'main..teamd/integration'], { cwd: dir, encoding: 'utf8' }).trimEnd());
  opts.out(`\nLook around: cd ${dir} && git log --graph --oneline --all; teamd status --dir ${dir}`);
  return { ok: true, dir, summary: run.summary };
}
