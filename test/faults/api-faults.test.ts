/**
 * Fault 4, API faults: teammates use the real AnthropicModel (the real SDK
 * over HTTP) against the fake Messages API on 127.0.0.1, which answers from a
 * script and injects 429, 529, 500, connection resets, cut streams and SSE
 * errors into 20% of the calls (seeded). One task is hit more times than
 * there are retries: the lead pauses the team for an outage, backs off, and
 * that task completes on its next run. The run ends with every task completed, or failed with a
 * clear reason when its calls were hit; every request the server got was valid,
 * and every saved transcript is a valid conversation.
 * Reduced: 15 tasks (30 calls, 6 faulted). Full: 60 tasks (120 calls, 24 faulted).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loadTranscript } from '../../src/agent/transcript.js';
import { readEvents } from '../../src/observe/event-log.js';
import type { Lead } from '../../src/lead/lead.js';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer, Fault } from '../../src/model/fake-server/types.js';
import { validateRequest } from '../../src/model/fake-server/validate.js';
import { genericTaskScript, makeTeamRepo, startLead, type TeamRepo } from '../e2e/support/harness.js';
import { tasksOnDisk, untilFiles } from './support/files.js';
import { budget, SEED, seededRandom, sized } from './support/scale.js';

const TASKS = sized(60, 15);
const FAULT_RATE = 0.2;
const RETRIES = 6; // AnthropicModel's default

let repo: TeamRepo | undefined;
let lead: Lead | undefined;
let server: FakeAnthropicServer | undefined;
const savedEnv = { url: process.env.ANTHROPIC_BASE_URL, key: process.env.ANTHROPIC_API_KEY };
afterEach(async () => {
  await lead?.stop('test over');
  lead = undefined;
  await server?.close();
  repo?.cleanup();
  process.env.ANTHROPIC_BASE_URL = savedEnv.url;
  process.env.ANTHROPIC_API_KEY = savedEnv.key;
  if (savedEnv.url === undefined) delete process.env.ANTHROPIC_BASE_URL;
  if (savedEnv.key === undefined) delete process.env.ANTHROPIC_API_KEY;
});

type Kind = Fault['kind'];
const KINDS: Fault[] = [
  { kind: 'rate_limit', retryAfterMs: 20 },
  { kind: 'overloaded' },
  { kind: 'server', status: 500 },
  { kind: 'reset' },
  { kind: 'cut_stream' },
  { kind: 'stream_error' },
  // servers that stream differently (issue 18): accepted, an error, or one non-streaming request
  { kind: 'sse_data_only' },
  { kind: 'json_for_stream' },
  { kind: 'no_message_delta' },
  { kind: 'no_message_stop' },
  { kind: 'no_content_block_stop' },
];

/** The latest user text of a task's calls: its prompt (turn 0), then the write tool's result (turn 1). */
const callsOf = (id: string): string[] => [`Task ${id}:`, `out/${id}\\.txt`];

it(
  `20% of model calls fail (429, 529, 500, reset, cut stream, SSE error, streams without event lines or closing events, JSON for a stream): tasks complete or fail clearly, transcripts stay valid (seed ${SEED})`,
  async () => {
    const random = seededRandom();
    server = await startFakeAnthropicServer({ script: genericTaskScript() });
    process.env.ANTHROPIC_BASE_URL = server.url; // the workers read these when they start
    process.env.ANTHROPIC_API_KEY = 'test-key';
    const r = (repo = makeTeamRepo({
      script: genericTaskScript(),
      config: {
        model: 'claude-sonnet-5',
        teammates: [{ name: 'ann' }, { name: 'bob' }],
        worktrees: { mode: 'off' },
      },
    }));
    const ids = Array.from({ length: TASKS }, (_, i) => `t${i + 1}`);
    // 20% of the calls, drawn without replacement; every kind of fault is used in turn.
    const doomed = ids.at(-1)!;
    const calls = ids
      .filter((id) => id !== doomed)
      .flatMap((id) => callsOf(id).map((text) => ({ id, text })));
    for (let i = calls.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [calls[i], calls[j]] = [calls[j]!, calls[i]!];
    }
    const hit = new Map<string, Kind[]>();
    for (const [i, call] of calls.slice(0, Math.round(calls.length * FAULT_RATE)).entries()) {
      const fault = KINDS[i % KINDS.length]!;
      server.inject({ ...fault, match: { text: call.text } });
      hit.set(call.id, [...(hit.get(call.id) ?? []), fault.kind]);
    }
    // One task's first call is hit more times than there are retries: an outage, the team backs off, it runs again.
    server.inject(
      Array.from({ length: RETRIES + 1 }, () => ({
        kind: 'rate_limit' as const,
        retryAfterMs: 5,
        match: { text: `Task ${doomed}:` },
      })),
    );
    hit.set(doomed, [...(hit.get(doomed) ?? []), 'rate_limit']);
    for (const id of ids) r.writeTask(id, { subject: `make ${id}` });

    const started = await startLead(r, { outageBackoffMs: [50] });
    lead = started.lead;
    const settled = () =>
      ids.every((id) => ['completed', 'failed'].includes(tasksOnDisk(r.dir).get(id)?.status ?? ''));
    await untilFiles(settled, budget(600_000, 120_000), 'every task to be settled').catch((err: Error) => {
      // Say which tasks hung and what the team last did, so a rare hang can be told apart.
      const open = [...tasksOnDisk(r.dir).values()].filter((t) => !['completed', 'failed'].includes(t.status));
      const tail = readEvents(r.dir).slice(-15).map((e) => JSON.stringify(e));
      throw new Error(`${err.message}; open: ${open.map((t) => `${t.id} ${t.status} ${t.owner ?? ''}`).join(', ')}\n${tail.join('\n')}`);
    });

    const tasks = tasksOnDisk(r.dir);
    const failed = ids.filter((id) => tasks.get(id)!.status === 'failed');
    expect(
      failed.filter((id) => !hit.has(id)),
      'only tasks whose calls were hit may fail',
    ).toEqual([]);
    for (const id of failed) expect(tasks.get(id)!.result?.error ?? '', id).toMatch(/\S{3,}/);
    expect(tasks.get(doomed)!.status).toBe('completed');
    expect(tasks.get(doomed)!.metadata.modelOutages).toBe(1);
    expect(readEvents(r.dir).some((e) => e.type === 'team_paused' && e.kind === 'outage')).toBe(true);
    expect(ids.filter((id) => !hit.has(id) && tasks.get(id)!.status !== 'completed')).toEqual([]);

    // Every request was one the real API would accept, and each got an answer or its fault.
    expect(
      server.requests
        .filter((q) => q.outcome === 'invalid' || q.outcome === 'unmatched')
        .map((q) => q.outcome),
    ).toEqual([]);
    const faulted = server.requests.filter((q) => q.outcome.startsWith('fault:')).length;
    expect(faulted, 'every injected fault was used').toBe(
      Math.round(calls.length * FAULT_RATE) + RETRIES + 1,
    );
    // Every saved conversation is valid as a Messages API request.
    for (const agent of ['ann', 'bob']) {
      const dir = join(r.dir, '.team', 'state', 'transcripts', agent);
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
        const loaded = await loadTranscript(dir, file.slice(0, -'.jsonl'.length));
        expect(loaded.ok, file).toBe(true);
        if (!loaded.ok || loaded.value.messages.length === 0) continue;
        const { messages } = loaded.value;
        const used = new Set(
          messages.flatMap((m) =>
            typeof m.content === 'string'
              ? []
              : m.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : [])),
          ),
        );
        const tools = [...used].map((name) => ({
          name,
          description: name,
          input_schema: { type: 'object' },
        }));
        const valid = validateRequest({ model: 'claude-sonnet-5', max_tokens: 1, messages, tools });
        expect(valid.ok ? 'valid' : valid.message, `${agent}/${file}`).toBe('valid');
      }
    }
    const why = failed.map(
      (id) => `${id} [${hit.get(id)!.join(', ')}]: ${tasks.get(id)!.result?.error ?? ''}`,
    );
    console.log(
      `api-faults: ${server.requests.length} requests, ${faulted} faulted; ${failed.length} of ${ids.length} tasks failed; seed ${SEED}\n${why.join('\n')}`,
    );
  },
  budget(900_000, 150_000),
);
