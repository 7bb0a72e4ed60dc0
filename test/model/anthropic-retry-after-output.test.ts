/**
 * A stream that breaks after some of the answer was streamed: retried while
 * no tool_use went out (the retry notice says the streamed part is void, the
 * answer is the next attempt's alone), never once a tool may be running.
 * The real SDK against the fake server's `cut_stream` and
 * `no_content_block_stop` faults.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startFakeAnthropicServer,
  type AnthropicModelOptions,
  type FakeAnthropicServer,
  type ModelStreamEvent,
  type RetryNotice,
} from '../../src/model/index.js';
import type { Fault } from '../../src/model/fake-server/types.js';
import type { ScriptBlock as ScriptContent } from '../../src/model/scripted/schema.js';
import { clientOn, collect, requestOf, textOf, tools } from './support.js';

let server: FakeAnthropicServer;
beforeEach(async () => {
  server = await startFakeAnthropicServer({ script: { steps: [] } });
});
afterEach(async () => {
  await server.close();
});

const TEXT_THEN_TOOL: ScriptContent[] = [
  { type: 'text', text: 'Let me look.' },
  { type: 'tool_use', name: 'bash', input: { command: 'ls -la /tmp' } },
];

/** The script answers every call with `content`; a cut uses up one answer. */
async function run(
  content: ScriptContent[],
  faults: Fault[],
  extra: Partial<AnthropicModelOptions> = {},
  text = 'hi',
) {
  server.setScript({ rules: [{ times: 'always', content }] });
  server.inject(faults);
  const notices: RetryNotice[] = [];
  const result = await collect(
    clientOn(server.url, extra),
    requestOf(text, { tools, onRetry: (n) => notices.push(n) }),
  );
  return { ...result, notices, outcomes: server.requests.map((r) => r.outcome) };
}

/** What a consumer that drops an attempt's output at each retry keeps: the events after the last retry. */
const afterLastRetry = (events: ModelStreamEvent[]): ModelStreamEvent[] =>
  events.slice(events.findLastIndex((e) => e.type === 'retry') + 1);

describe('a stream broken after output', () => {
  it('a cut inside a tool_use block after text is retried: the retry says the text is void, the answer is whole once', async () => {
    const { done, events, notices, outcomes } = await run(TEXT_THEN_TOOL, [{ kind: 'cut_stream' }]);
    expect(outcomes).toEqual(['fault:cut_stream', 'answered']);
    expect(notices).toEqual([
      expect.objectContaining({
        attempt: 1,
        discarded: true,
        error: expect.objectContaining({ kind: 'connection' }),
      }),
    ]);
    const retry = events.find((e) => e.type === 'retry');
    expect(retry).toMatchObject({ notice: { discarded: true } });
    // the cut attempt's text went out before the retry; after it, the answer once
    expect(textOf(events.slice(0, events.indexOf(retry!)))).toBe('Let me look.');
    expect(textOf(afterLastRetry(events))).toBe('Let me look.');
    expect(events.filter((e) => e.type === 'tool_use')).toHaveLength(1);
    expect(done).toMatchObject({ stopReason: 'tool_use' });
    expect(done.message.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      expect.objectContaining({ type: 'tool_use', name: 'bash', input: { command: 'ls -la /tmp' } }),
    ]);
  });

  it('a retry before any output is not marked discarded', async () => {
    const { notices, done } = await run([TEXT_THEN_TOOL[1]!], [{ kind: 'cut_stream' }]);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.discarded).toBeUndefined();
    expect(done.stopReason).toBe('tool_use');
  });

  it('a cut after a complete tool_use is not retried (its tool may be running): a retryable connection error', async () => {
    const content = [...TEXT_THEN_TOOL, { type: 'text' as const, text: 'And more.' }];
    const { done, events, notices, outcomes } = await run(content, [
      { kind: 'cut_stream', at: 'after_tool' },
    ]);
    expect(outcomes).toEqual(['fault:cut_stream']);
    expect(notices).toEqual([]);
    expect(events.filter((e) => e.type === 'tool_use')).toHaveLength(1);
    expect(done).toMatchObject({ stopReason: 'error', error: { kind: 'connection', retryable: true } });
  });

  it('cuts after text on every try: bounded by retry.maxRetries, the error says which limit ended it', async () => {
    const cuts = Array.from({ length: 4 }, (): Fault => ({ kind: 'cut_stream' }));
    const { done, notices, outcomes } = await run(TEXT_THEN_TOOL, cuts, { maxRetries: 2 });
    expect(outcomes).toEqual(['fault:cut_stream', 'fault:cut_stream', 'fault:cut_stream']);
    expect(notices.map((n) => n.discarded)).toEqual([true, true]);
    expect(done).toMatchObject({ stopReason: 'error', error: { kind: 'connection' } });
    expect(done.error!.message).toMatch(/retr/);
  });

  it('bounded by retry.capMs: a retry that would start past the cap is not made', async () => {
    const { done, notices, outcomes } = await run(TEXT_THEN_TOOL, [{ kind: 'cut_stream' }], {
      retryCapMs: 0,
    });
    expect(outcomes).toEqual(['fault:cut_stream']);
    expect(notices).toEqual([]);
    expect(done).toMatchObject({ stopReason: 'error', error: { kind: 'connection' } });
  });

  it('no_content_block_stop after text went out: retried, then the whole answer (never a success from the broken one)', async () => {
    const { done, notices, outcomes, events } = await run(TEXT_THEN_TOOL, [
      { kind: 'no_content_block_stop' },
    ]);
    expect(outcomes).toEqual(['fault:no_content_block_stop', 'answered']);
    expect(notices).toEqual([expect.objectContaining({ discarded: true })]);
    expect(textOf(afterLastRetry(events))).toBe('Let me look.');
    expect(done).toMatchObject({ stopReason: 'tool_use' });
    expect(done.message.content).toHaveLength(2);
  });

  it('generated answers and cuts: a tool_use goes out at most once; after the last retry the output is the answer', async () => {
    const block = fc.oneof(
      fc.record({ type: fc.constant('text' as const), text: fc.string({ minLength: 1, maxLength: 12 }) }),
      fc.record({
        type: fc.constant('thinking' as const),
        thinking: fc.string({ minLength: 1, maxLength: 12 }),
      }),
      fc.record({
        type: fc.constant('tool_use' as const),
        name: fc.constant('bash'),
        input: fc.record({ command: fc.string({ maxLength: 12 }) }),
      }),
    );
    const fault = fc.constantFrom<Fault>(
      { kind: 'cut_stream' },
      { kind: 'cut_stream', at: 'after_tool' },
      { kind: 'no_content_block_stop' },
    );
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(block, { minLength: 1, maxLength: 4 }),
        fc.array(fault, { maxLength: 2 }),
        async (content, faults) => {
          // a fault a call did not use up (no retry followed it) must not reach the next case's call
          const text = `case ${++cases}`;
          const mine = faults.map((f) => ({ ...f, match: { text: `^${text}$` } }));
          const { done, events, notices } = await run(content, mine, {}, text);
          const tools = events.filter((e) => e.type === 'tool_use');
          expect(tools.length).toBeLessThanOrEqual(content.filter((b) => b.type === 'tool_use').length);
          const retryAfterTool = events.some(
            (e, i) => e.type === 'retry' && events.slice(0, i).some((x) => x.type === 'tool_use'),
          );
          expect(retryAfterTool).toBe(false);
          if (done.stopReason === 'error') return;
          expect(textOf(afterLastRetry(events))).toBe(
            content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
          );
          expect(done.message.content.map((b) => b.type)).toEqual(content.map((b) => b.type));
          expect(notices.length).toBeLessThanOrEqual(faults.length);
        },
      ),
      { numRuns: 25 },
    );
  });
});
