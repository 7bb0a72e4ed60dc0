/**
 * A team for a benchmark: a temp git repository with a scripted model and a
 * config, and a lead started from dist/. Waits are on the lead's events; a
 * benchmark is not a test, but it must still never time a sleep.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Lead } from '../../src/lead/lead.js';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../src/model/types.js';
import type { LoggedEvent } from '../../src/observe/types.js';
import type { Daemon } from './dist.js';

export interface BenchRepo {
  dir: string;
  /** The model spec of the team (`scripted:<path>`). */
  model: string;
  close(): Promise<void>;
}

/** `count` teammates named w1…wN. */
export const teammates = (count: number): { name: string; maxTurns?: number }[] =>
  Array.from({ length: count }, (_, i) => ({ name: `w${i + 1}` }));

export async function makeBenchRepo(
  script: ScriptInput,
  config: Record<string, unknown>,
): Promise<BenchRepo> {
  const dir = await mkdtemp(join(tmpdir(), 'teamd-bench-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git(
    '-c',
    'user.name=bench',
    '-c',
    'user.email=bench@teamd.invalid',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'init',
  );
  await writeFile(join(dir, '.gitignore'), '.worktrees/\n.team/state/\nout/\n');
  await mkdir(join(dir, '.team'), { recursive: true });
  await mkdir(join(dir, '.tasks'), { recursive: true });
  const scriptPath = join(dir, '.team', 'script.json');
  await writeFile(scriptPath, JSON.stringify(script));
  const model = `scripted:${scriptPath}`;
  await writeFile(
    join(dir, '.team', 'config.json'),
    JSON.stringify({ model, worktrees: { mode: 'off' }, leaseMs: 60_000, ...config }),
  );
  return { dir, model, close: () => rm(dir, { recursive: true, force: true }) };
}

/** One-turn tasks: every `Task <id>:` is answered by one text turn, mail by "Noted.". */
export const oneTurnScript = (): ScriptInput => ({
  rules: [
    {
      name: 'one turn',
      conversation: 'Task (\\S+):',
      turn: 0,
      times: 'always',
      content: [{ type: 'text', text: 'done $1' }],
    },
    {
      name: 'mail',
      conversation: 'You have new messages',
      times: 'always',
      content: [{ type: 'text', text: 'Noted.' }],
    },
  ],
});

export interface RunningTeam {
  lead: Lead;
  /** Subscribe with the time (performance.now()) each event reached the lead. */
  on(fn: (e: LoggedEvent, at: number) => void): () => void;
  stop(): Promise<void>;
}

export async function startTeam(
  daemon: Daemon,
  repo: BenchRepo,
  idleRecheckMs?: number,
): Promise<RunningTeam> {
  const listeners = new Set<(e: LoggedEvent, at: number) => void>();
  const started = await daemon.Lead.start({
    repoRoot: repo.dir,
    idleRecheckMs,
    onEvent: (e) => {
      const at = performance.now();
      for (const fn of listeners) fn(e, at);
    },
  });
  if (!started.ok) throw new Error(`the lead did not start: ${started.error}`);
  const lead = started.value;
  return {
    lead,
    on: (fn) => (listeners.add(fn), () => listeners.delete(fn)),
    stop: () => lead.stop('benchmark over'),
  };
}

/** Resolves once every teammate of the pool reports `idle` (checked on each state event). */
export function allIdle(team: RunningTeam, timeoutMs = 120_000): Promise<void> {
  const idle = () => team.lead.pool.names().every((n) => team.lead.pool.stateOf(n)?.state === 'idle');
  return untilEvent(team, idle, timeoutMs, 'every teammate to be idle');
}

/**
 * Resolves when `check()` holds, re-checked on every event of the lead and
 * just after it: a worker posts its event before its state message, so the
 * pool's view of a teammate changes a moment after the event. A slow poll
 * covers changes no event announces.
 */
export function untilEvent(
  team: RunningTeam,
  check: () => boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check()) return resolve();
    const finish = (err?: Error): void => {
      clearTimeout(timer);
      clearInterval(poll);
      off();
      if (err) reject(err);
      else resolve();
    };
    const recheck = (): void => {
      if (check()) finish();
    };
    const timer = setTimeout(
      () => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
    const poll = setInterval(recheck, 100);
    const off = team.on(() => {
      recheck();
      setImmediate(recheck);
    });
  });
}

/** Calls `onCall` with every request the lead's shared scripted model gets, and `onDone` with its duration. */
export function observeModel(
  team: RunningTeam,
  spec: string,
  onCall: (request: ModelRequest, at: number) => void,
  onDone?: (request: ModelRequest, ms: number) => void,
): void {
  const client: ModelClient = team.lead.models.client(spec);
  const inner = client.stream.bind(client);
  client.stream = (request: ModelRequest): AsyncIterable<ModelStreamEvent> => {
    const began = performance.now();
    onCall(request, began);
    if (!onDone) return inner(request);
    return (async function* timed() {
      yield* inner(request);
      onDone(request, performance.now() - began);
    })();
  };
}

/** The text of the latest user message of a request (where new mail and tool results arrive). */
export function latestUserText(request: ModelRequest): string {
  const last = [...request.messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content
    .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? JSON.stringify(b.content) : ''))
    .join('\n');
}

/** The text of the first user message (the task prompt that keys a conversation). */
export function firstUserText(request: ModelRequest): string {
  const first = request.messages.find((m) => m.role === 'user');
  if (!first) return '';
  return typeof first.content === 'string'
    ? first.content
    : first.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

/**
 * Stamps two inner steps of the lead, for latency breakdowns: its watcher
 * handing a task file to the index (`refresh`), and a `wake` leaving for a
 * teammate. Observation only: both calls go through unchanged.
 */
export function observeLead(
  team: RunningTeam,
  on: {
    refresh?: (id: string, at: number) => void;
    wake?: (teammate: string, tasks: string[], at: number) => void;
  },
): void {
  const { tasks, pool } = team.lead;
  const refresh = tasks.refresh.bind(tasks);
  tasks.refresh = (id: string) => {
    on.refresh?.(id, performance.now());
    return refresh(id);
  };
  const send = pool.send.bind(pool);
  pool.send = (name, msg) => {
    // Task changes travel as `tasks` messages (the tasks themselves); `wake` names none.
    if (msg.type === 'wake') on.wake?.(name, [], performance.now());
    if (msg.type === 'tasks') {
      const ids = (JSON.parse(msg.json) as { updated: { id: string }[] }).updated.map((t) => t.id);
      on.wake?.(name, ids, performance.now());
    }
    send(name, msg);
  };
}
