/**
 * The token ledger's run: a team of `teammates` on `tasks` three-turn tasks
 * (two bash calls, then a summary; the first task also mails a teammate),
 * each teammate its own AnthropicModel — the real SDK — against the fake
 * Messages API with its prompt-cache simulation. The ledger is then read from
 * the run's transcripts, as `teamd cost --tokens` reads it, and the tool
 * schemas of every request are measured at the server.
 */
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { estimateTokens } from '../../src/model/usage.js';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { teamFactsOf } from '../../src/cli/token-facts.js';
import { ledgerRows, type LedgerRow } from '../../src/observe/token-ledger.js';
import { ledgerCallsFromTranscripts } from '../../src/observe/token-ledger-transcripts.js';
import { makeBenchRepo, startTeam, allIdle, teammates as names, untilEvent } from '../support/team.js';
import type { Daemon } from '../support/dist.js';

export const LEDGER_MODEL = 'claude-sonnet-5-5';

const step = (
  turn: number,
  content: NonNullable<ScriptInput['rules']>[number]['content'],
  conversation = 'Task (\\S+):',
) => ({
  conversation,
  turn,
  times: 'always' as const,
  content,
});

export const ledgerScript = (): ScriptInput => ({
  rules: [
    step(
      2,
      [
        {
          type: 'tool_use',
          name: 'send_message',
          input: { to: 'w2', content: 't1 is done: out/t1.txt holds its output.' },
        },
      ],
      'Task t1:',
    ),
    step(3, [{ type: 'text', text: 'Wrote out/t1.txt and told w2.' }], 'Task t1:'),
    step(0, [{ type: 'tool_use', name: 'bash', input: { command: 'mkdir -p out && echo $1 > out/$1.txt' } }]),
    step(1, [{ type: 'tool_use', name: 'bash', input: { command: 'cat out/$1.txt && ls out | wc -l' } }]),
    step(2, [{ type: 'text', text: 'Wrote out/$1.txt and checked it.' }]),
    { conversation: 'You have new messages', times: 'always', content: [{ type: 'text', text: 'Noted.' }] },
  ],
});

export interface LedgerRun {
  teammates: LedgerRow[];
  tasks: LedgerRow[];
  /** Tool-schema tokens of each request, measured at the server. */
  schemaTokensPerRequest: number[];
  requests: number;
}

type TeamParts = Pick<Daemon, 'Lead' | 'TaskStore'>;

export async function runLedger(
  daemon: TeamParts,
  opts: { tasks: number; teammates: number },
): Promise<LedgerRun> {
  await using server = await startFakeAnthropicServer({ script: ledgerScript() });
  const config = {
    model: LEDGER_MODEL,
    teammates: names(opts.teammates),
    permissions: { defaultMode: 'bypassPermissions' },
  };
  const repo = await makeBenchRepo({ steps: [] }, config);
  const env = { url: process.env['ANTHROPIC_BASE_URL'], key: process.env['ANTHROPIC_API_KEY'] };
  process.env['ANTHROPIC_BASE_URL'] = server.url;
  process.env['ANTHROPIC_API_KEY'] = 'test-key';
  try {
    const store = await daemon.TaskStore.open(repo.dir);
    for (let i = 1; i <= opts.tasks; i++) await store.create({ id: `t${i}`, subject: `write out/t${i}.txt` });
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
      requests: bodies.length,
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
