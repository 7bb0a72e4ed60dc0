/**
 * Recorded team states as real folders: config, tasks, status files, events,
 * transcripts, mailboxes, cron, merge queue and approval requests, each
 * validated with the schema its reader uses. A "running" team has a stand-in
 * lead: a real process whose pid is in `.team/state/lead.pid`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamConfigSchema, type TeamConfig } from '../../../src/config/schema.js';
import { MergeQueueFileSchema } from '../../../src/git/types.js';
import type { LoggedEvent } from '../../../src/observe/types.js';
import { CronJobSchema, MessageSchema, TaskSchema, type Task } from '../../../src/store/types.js';
import { RequestSchema } from '../../../src/teammate/requests.js';
import { AgentStatusSchema, type AgentStatus } from '../../../src/teammate/types.js';
import { line, usage, writeSession, type SessionSpec } from './transcripts.js';

export type TeamKind = 'working' | 'stalled' | 'approval' | 'finished';

/** A fixed clock for frames that must not change between runs. */
export const FIXTURE_NOW = Date.parse('2026-11-29T10:00:00.000Z');

export interface TeamFixture {
  root: string;
  now: number;
  config: TeamConfig;
  close(): Promise<void>;
}

const MIN = 60_000;
const writeJson = (file: string, value: unknown): void => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
};
const iso = (t: number): string => new Date(t).toISOString();

const CONFIG = {
  model: 'claude-sonnet-5-5',
  teammates: [{ name: 'worker-1' }, { name: 'worker-2', maxBudgetUsd: 1 }],
  stallAfterMs: 120_000,
  maxBudgetUsd: 5,
};

type TaskSpec = Pick<Task, 'id' | 'subject'> & Partial<Task>;

function tasksFor(kind: TeamKind): TaskSpec[] {
  const done = kind === 'finished';
  return [
    { id: 'design-ast', subject: 'Design the AST', status: 'completed', owner: 'worker-1' },
    {
      id: 'parser',
      subject: 'Write the parser',
      blockedBy: ['design-ast'],
      status: done ? 'completed' : 'in_progress',
      owner: 'worker-1',
    },
    {
      id: 'lexer-tests',
      subject: 'Test the lexer on the parser',
      blockedBy: ['parser'],
      status: done ? 'completed' : 'pending',
    },
    {
      id: 'docs',
      subject: 'Document the syntax',
      status: done ? 'completed' : kind === 'stalled' ? 'in_progress' : 'pending',
      owner: kind === 'stalled' || done ? 'worker-2' : null,
    },
    {
      id: 'release',
      subject: 'Cut a release',
      blockedBy: ['lexer-tests', 'docs'],
      status: done ? 'failed' : 'pending',
      owner: done ? 'worker-2' : null,
    },
  ];
}

function statusFor(kind: TeamKind, name: string, now: number): AgentStatus {
  const fresh = iso(now - 3000);
  const base = {
    name,
    pid: 4242,
    heartbeat: fresh,
    startedAt: iso(now - 20 * MIN),
    turns: 0,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    costUsd: 0,
    model: 'claude-sonnet-5-5',
    restarts: 0,
  };
  const byKind: Record<TeamKind, Record<string, Partial<AgentStatus>>> = {
    working: {
      'worker-1': { state: 'working', task: 'parser', turns: 5 },
      'worker-2': { state: 'idle', task: null, turns: 2 },
    },
    stalled: {
      'worker-1': { state: 'working', task: 'parser', turns: 5 },
      'worker-2': { state: 'working', task: 'docs', turns: 2, heartbeat: iso(now - 5 * MIN) },
    },
    approval: {
      'worker-1': { state: 'waiting', task: 'parser', turns: 5 },
      'worker-2': { state: 'idle', task: null, turns: 2 },
    },
    finished: {
      'worker-1': { state: 'stopped', task: null, turns: 9, heartbeat: iso(now - 2 * MIN) },
      'worker-2': { state: 'stopped', task: null, turns: 6, heartbeat: iso(now - 2 * MIN) },
    },
  };
  return AgentStatusSchema.parse({ ...base, task: null, state: 'idle', ...byKind[kind][name] });
}

function eventsFor(kind: TeamKind, now: number): LoggedEvent[] {
  // Progress of worker-1 is older than stallAfterMs in the stalled team.
  const t = (minutesAgo: number): string => iso(now - minutesAgo * MIN - (kind === 'stalled' ? 3 * MIN : 0));
  const events: LoggedEvent[] = [
    { ts: t(20), type: 'daemon_started', pid: 4242, teammates: ['worker-1', 'worker-2'] },
    { ts: t(19), type: 'task_claimed', task: 'design-ast', agent: 'worker-1', attempt: 1 },
    {
      ts: t(12),
      type: 'task_completed',
      task: 'design-ast',
      agent: 'worker-1',
      summary: 'AST nodes and spans in src/ast.ts',
    },
    { ts: t(11), type: 'merge_merged', task: 'design-ast', commit: '0123456789abcdef' },
    { ts: t(10), type: 'task_claimed', task: 'parser', agent: 'worker-1', attempt: 1 },
  ];
  if (kind === 'stalled')
    events.push({ ts: t(6), type: 'task_claimed', task: 'docs', agent: 'worker-2', attempt: 1 });
  if (kind === 'approval')
    events.push({
      ts: iso(now - 30_000),
      type: 'approval_requested',
      requestId: 'perm-1',
      agent: 'worker-1',
      kind: 'permission',
      summary: 'bash: rm -rf build && npm run build',
    });
  if (kind === 'finished') {
    events.push(
      {
        ts: t(6),
        type: 'task_completed',
        task: 'parser',
        agent: 'worker-1',
        summary: 'recursive descent parser with tests',
      },
      {
        ts: t(5),
        type: 'task_failed',
        task: 'release',
        agent: 'worker-2',
        error: 'npm publish: 403 Forbidden',
      },
      { ts: t(3), type: 'team_finished', completed: 4, failed: 1, cancelled: 0 },
      { ts: t(3), type: 'daemon_stopped' },
    );
  }
  return events;
}

function writeTranscripts(root: string, kind: TeamKind, now: number): void {
  const designAst: SessionSpec = {
    agent: 'worker-1',
    session: 's1-design',
    parent: 'design-ast',
    mtime: now - 12 * MIN,
  };
  writeSession(root, designAst, [
    line.header(designAst),
    line.init(designAst),
    line.prompt(designAst, 'Task design-ast: Design the AST'),
    line.tool(
      designAst,
      't1',
      'write',
      { file_path: 'src/ast.ts', content: 'export type Node = {}\n' },
      usage(1000, 200, 0, 4000),
    ),
    line.toolResult(designAst, 't1', 'Created src/ast.ts (1 lines, 22 bytes).'),
    line.text(designAst, 'The AST is in src/ast.ts.', usage(500, 300, 4000, 0)),
    line.result(designAst, { 'claude-sonnet-5-5': usage(1500, 500, 4000, 4000) }, 0.0184, 2),
  ]);
  const parser: SessionSpec = {
    agent: 'worker-1',
    session: 's2-parser',
    parent: 'parser',
    mtime: now - (kind === 'stalled' ? 4 * MIN : 20_000),
  };
  const lines: object[] = [
    line.header(parser),
    line.init(parser),
    line.prompt(parser, 'Task parser: Write the parser'),
    line.tool(parser, 't2', 'bash', { command: 'npm test -- parser' }, usage(2000, 100, 4000, 0)),
    line.toolResult(parser, 't2', 'FAIL test/parser.test.ts\nExpected 3 nodes, got 2', true),
    line.text(parser, 'The parser drops the last node; fixing the loop bound.', usage(2500, 400, 4000, 0)),
  ];
  if (kind === 'finished')
    lines.push(line.result(parser, { 'claude-sonnet-5-5': usage(4500, 500, 8000, 0) }, 0.0148, 2));
  writeSession(root, parser, lines);
  if (kind !== 'finished') return;
  const release: SessionSpec = {
    agent: 'worker-2',
    session: 's3-release',
    parent: 'release',
    mtime: now - 5 * MIN,
  };
  writeSession(root, release, [
    line.header(release),
    line.init(release),
    line.tool(release, 't3', 'bash', { command: 'npm publish' }, usage(800, 50)),
    line.toolResult(release, 't3', 'npm ERR! 403 Forbidden', true),
    line.result(
      release,
      { 'claude-sonnet-5-5': usage(800, 50) },
      0.0021,
      1,
      'error_during_execution',
      'npm publish: 403 Forbidden',
    ),
  ]);
}

function writeTeamFiles(root: string, kind: TeamKind, now: number): void {
  writeJson(join(root, '.team', 'config.json'), CONFIG);
  for (const t of tasksFor(kind))
    writeJson(
      join(root, '.tasks', `${t.id}.json`),
      TaskSchema.parse({ createdAt: iso(now - 30 * MIN), updatedAt: iso(now - MIN), ...t }),
    );
  for (const name of ['worker-1', 'worker-2'])
    writeJson(join(root, '.team', 'state', 'agents', `${name}.json`), statusFor(kind, name, now));
  const events = eventsFor(kind, now);
  writeFileSync(
    join(root, '.team', 'state', 'events.jsonl'),
    events.map((e) => JSON.stringify(e) + '\n').join(''),
  );
  writeTranscripts(root, kind, now);
  const message = (id: string, from: string, to: string, content: string, minutesAgo: number) =>
    MessageSchema.parse({ id, from, to, content, ts: iso(now - minutesAgo * MIN) });
  writeJson(
    join(root, '.mailboxes', 'lead.json'),
    kind === 'finished'
      ? []
      : [
          message(
            'm-2',
            'worker-1',
            'lead',
            'parser: the spec says nothing about trailing commas; allow them?',
            1,
          ),
        ],
  );
  writeJson(join(root, '.mailboxes', 'worker-2.json'), []);
  mkdirSync(join(root, '.mailboxes', 'archive'), { recursive: true });
  writeFileSync(
    join(root, '.mailboxes', 'archive', 'worker-2.jsonl'),
    JSON.stringify(message('m-1', 'lead', 'worker-2', 'docs can wait until the parser lands', 15)) + '\n',
  );
  writeJson(
    join(root, '.cron', 'nightly-review.json'),
    CronJobSchema.parse({
      id: 'nightly-review',
      cron: '0 2 * * *',
      prompt: 'Review the day',
      to: 'lead',
      timezone: 'UTC',
      createdAt: iso(now - 60 * MIN),
    }),
  );
  const entry = {
    taskId: 'design-ast',
    branch: 'teamd/design-ast',
    agent: 'worker-1',
    subject: 'Design the AST',
    state: 'merged',
    enqueuedAt: iso(now - 12 * MIN),
    updatedAt: iso(now - 11 * MIN),
    mergeCommit: '0123456789abcdef',
  };
  writeJson(
    join(root, '.team', 'state', 'merge-queue.json'),
    MergeQueueFileSchema.parse({ version: 1, integrationBranch: 'teamd/integration', entries: [entry] }),
  );
  if (kind === 'approval') writeRequests(root, now);
}

function writeRequests(root: string, now: number): void {
  const base = {
    task: 'parser',
    status: 'pending',
    createdAt: iso(now - 30_000),
    expiresAt: iso(now + 4 * MIN),
    answer: null,
  };
  writeJson(
    join(root, '.team', 'state', 'requests', 'perm-1.json'),
    RequestSchema.parse({
      ...base,
      id: 'perm-1',
      kind: 'permission',
      agent: 'worker-1',
      tool: 'bash',
      input: { command: 'rm -rf build && npm run build' },
      summary: 'bash: rm -rf build && npm run build',
    }),
  );
  writeJson(
    join(root, '.team', 'state', 'requests', 'plan-2.json'),
    RequestSchema.parse({
      ...base,
      id: 'plan-2',
      kind: 'plan',
      agent: 'worker-2',
      task: 'docs',
      createdAt: iso(now - 20_000),
      summary: 'Plan: one page per construct, examples tested',
    }),
  );
}

/** A stand-in for a running lead: any live process other than ours. */
function standInLead(root: string): ChildProcess {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  writeFileSync(join(root, '.team', 'state', 'lead.pid'), `${child.pid}\n`);
  return child;
}

/** Builds the team of `kind` in a new temp folder. */
export function buildTeam(kind: TeamKind, now = FIXTURE_NOW): TeamFixture {
  const root = mkdtempSync(join(tmpdir(), `teamd-top-${kind}-`));
  writeTeamFiles(root, kind, now);
  const lead = kind === 'finished' ? null : standInLead(root);
  return {
    root,
    now,
    config: TeamConfigSchema.parse(CONFIG),
    async close() {
      lead?.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    },
  };
}
