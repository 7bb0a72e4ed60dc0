/**
 * The token ledger's run: a team of `teammates` on `tasks` tasks of a
 * workload (./workloads.ts), each teammate its own AnthropicModel — the real SDK — against the fake
 * Messages API with its prompt-cache simulation. The ledger is then read from
 * the run's transcripts, as `teamd cost --tokens` reads it, and the tool
 * schemas of every request are measured at the server.
 */
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import { estimateTokens } from '../../src/model/usage.js';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { teamFactsOf } from '../../src/cli/token-facts.js';
import { ledgerRows, type LedgerCall, type LedgerRow } from '../../src/observe/token-ledger.js';
import { ledgerCallsFromTranscripts } from '../../src/observe/token-ledger-transcripts.js';
import { makeBenchRepo, startTeam, allIdle, teammates as names, untilEvent } from '../support/team.js';
import type { Daemon } from '../support/dist.js';
import { cacheShareBound } from './cache-bound.js';
import type { Workload } from './workloads.js';

export const LEDGER_MODEL = 'claude-sonnet-5-5';

export interface LedgerRun {
  teammates: LedgerRow[];
  tasks: LedgerRow[];
  /** Tool-schema tokens of each request, measured at the server. */
  schemaTokensPerRequest: number[];
  /** Tokens of each request's whole prompt (system, tools, messages), measured at the server. */
  promptTokensPerRequest: number[];
  requests: number;
  /** The share of input an ideal cache would read on these requests (./cache-bound.ts). */
  cacheShareBound: number;
  /** Every model call of the run, in transcript order per agent (`--calls` prints them). */
  calls: LedgerCall[];
}

type TeamParts = Pick<Daemon, 'Lead' | 'TaskStore'>;

export async function runLedger(
  daemon: TeamParts,
  opts: { tasks: number; teammates: number; workload: Workload },
): Promise<LedgerRun> {
  await using server = await startFakeAnthropicServer({ script: opts.workload.script });
  const config = {
    model: LEDGER_MODEL,
    teammates: names(opts.teammates).map((t) => ({ ...t, ...(opts.workload.maxTurns ? { maxTurns: opts.workload.maxTurns } : {}) })),
    permissions: { defaultMode: 'bypassPermissions' },
  };
  const repo = await makeBenchRepo({ steps: [] }, config);
  const env = { url: process.env['ANTHROPIC_BASE_URL'], key: process.env['ANTHROPIC_API_KEY'] };
  process.env['ANTHROPIC_BASE_URL'] = server.url;
  process.env['ANTHROPIC_API_KEY'] = 'test-key';
  try {
    const ids = Array.from({ length: opts.tasks }, (_, i) => `t${i + 1}`);
    await opts.workload.seed(repo.dir, ids);
    const store = await daemon.TaskStore.open(repo.dir);
    for (const id of ids) await store.create({ id, subject: opts.workload.subject(id) });
    const team = await startTeam(daemon as Daemon, repo);
    const done = () => team.lead.tasks.list().every((t) => t.status === 'completed' || t.status === 'failed');
    await untilEvent(team, done, 600_000, `${opts.tasks} tasks to finish`);
    // A mail session may still be answering after the last task: every call it made belongs in the ledger.
    await allIdle(team, 120_000);
    await team.stop();
    const calls = ledgerCallsFromTranscripts(
      repo.dir,
      teamFactsOf(TeamConfigSchema.parse({ ...config, worktrees: { mode: 'off' } })),
    );
    const bodies = server.requests.filter((r) => r.outcome === 'answered').map((r) => r.body!);
    return {
      teammates: ledgerRows(calls, 'teammate'),
      tasks: ledgerRows(calls, 'task'),
      schemaTokensPerRequest: bodies.map((b) => estimateTokens(JSON.stringify(b.tools ?? []))),
      promptTokensPerRequest: bodies.map((b) => estimateTokens(JSON.stringify([b.system, b.tools, b.messages]))),
      requests: bodies.length,
      cacheShareBound: cacheShareBound(bodies),
      calls,
    };
  } finally {
    restore('ANTHROPIC_BASE_URL', env.url);
    restore('ANTHROPIC_API_KEY', env.key);
    await repo.close();
  }
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
