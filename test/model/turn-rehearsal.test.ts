import { channel, subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer, type ConversationMessage, type FakeAnthropicServer } from '../../src/model/index.js';
import { MAX_HEAD_BYTES, RequestSplitter, startCannedEndpoint, sseOf } from '../../src/model/canned-endpoint.js';
import { connect } from 'node:net';
import { ANSWER_HEAD_CHANNEL, REQUEST_SENT_CHANNEL, whileAnswerAwaited } from '../../src/model/request-sent.js';
import { rehearseFirstTurn, startTurnRehearsal, turnRehearsalWanted } from '../../src/model/turn-rehearsal.js';
import { clientOn, collect, requestOf, tools } from './support.js';

/** Every request fetch makes in this thread, in order: its origin and when its body was written. */
function watchFetch(): { events: string[]; stop(): void } {
  const events: string[] = [];
  const created = (m: unknown): void => void events.push(`create ${(m as { request: { origin: string } }).request.origin}`);
  const sent = (m: unknown): void => void events.push(`sent ${(m as { request: { origin: string } }).request.origin}`);
  subscribe('undici:request:create', created);
  subscribe('undici:request:bodySent', sent);
  return {
    events,
    stop: () => (unsubscribe('undici:request:create', created), unsubscribe('undici:request:bodySent', sent)),
  };
}

/** Handles that keep the event loop alive, of the kinds a rehearsal opens. */
const liveSockets = (): string[] => process.getActiveResourcesInfo().filter((r) => /TCP|Pipe|Process/.test(r));

/** Waits (turns of the event loop, bounded) until `check` holds. */
async function eventually(check: () => boolean, turns = 2000): Promise<boolean> {
  for (let i = 0; i < turns && !check(); i++) await new Promise((r) => setTimeout(r, 1));
  return check();
}

let server: FakeAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOOL_ROUND: ConversationMessage[] = [
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'echo one' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'one' }] },
];

describe('the first turn rehearsal', () => {
  it('starts once the first real request is written, and the real endpoint gets only the conversation', async () => {
    server = await startFakeAnthropicServer({
      script: {
        steps: [
          { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo one' } }], delayMs: 600 },
          { content: [{ type: 'text', text: 'It printed one.' }] },
        ],
      },
    });
    expect(turnRehearsalWanted()).toBe(false);
    rehearseFirstTurn();
    const watch = watchFetch();
    try {
      const model = clientOn(server.url);
      const first = await collect(model, requestOf('Echo one word.', { tools }));
      expect(first.done.stopReason).toBe('tool_use');
      const second = await collect(model, requestOf('Echo one word.', { tools, messages: [{ role: 'user', content: 'Echo one word.' }, ...TOOL_ROUND] }));
      expect(second.done.stopReason).toBe('end_turn');
      expect(server.requests).toHaveLength(2);
      const real = new URL(server.url).origin;
      // the real request is created and written before anything of the rehearsal; its two requests go elsewhere
      expect(watch.events.slice(0, 2)).toEqual([`create ${real}`, `sent ${real}`]);
      const rehearsal = watch.events.filter((e) => e.startsWith('create') && !e.endsWith(real));
      expect(rehearsal).toHaveLength(2);
      expect(rehearsal.every((e) => e.includes('127.0.0.1'))).toBe(true);
    } finally {
      watch.stop();
    }
  });

  it('leaves nothing that keeps the process alive, whether it ends, is cancelled at once or midway', async () => {
    const before = liveSockets();
    const echo = { ...requestOf('x', { tools }), signal: new AbortController().signal };
    const done = startTurnRehearsal((url) => clientOn(url), echo);
    await done.done;
    expect(await eventually(() => liveSockets().length <= before.length)).toBe(true);
    const cancelled = startTurnRehearsal((url) => clientOn(url), echo);
    cancelled.cancel();
    await cancelled.done;
    const midway = startTurnRehearsal((url) => clientOn(url), echo);
    const watch = watchFetch();
    await eventually(() => watch.events.some((e) => e.startsWith('sent')));
    watch.stop();
    midway.cancel();
    await midway.done;
    expect(await eventually(() => liveSockets().length <= before.length)).toBe(true);
  });

  it('is harmless whatever the endpoint answers or however the client fails (generated)', async () => {
    const answers = fc.oneof(
      fc.string(),
      fc.constant('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: 5\r\n\r\ndata:'),
      fc.string().map((s) => `HTTP/1.1 500 Oops\r\ncontent-length: ${Buffer.byteLength(s)}\r\n\r\n${s}`),
      fc.string().map((s) => `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n${s}`),
    );
    const before = liveSockets();
    await fc.assert(
      fc.asyncProperty(answers, fc.boolean(), fc.array(fc.string(), { maxLength: 3 }), async (answer, throws, texts) => {
        const bad = createServer((socket: Socket) => socket.once('data', () => socket.end(answer)).on('error', () => undefined));
        await new Promise<void>((r) => bad.listen(0, '127.0.0.1', r));
        const url = `http://127.0.0.1:${(bad.address() as AddressInfo).port}`;
        try {
          const messages: ConversationMessage[] = texts.length ? texts.map((t) => ({ role: 'user', content: t || '.' })) : [{ role: 'user', content: 'x' }];
          const rehearsal = startTurnRehearsal(() => {
            if (throws) throw new Error('no client');
            return clientOn(url, { timeoutMs: 2000 });
          }, requestOf('x', { tools, messages }));
          await expect(rehearsal.done).resolves.toBeUndefined();
        } finally {
          bad.close();
        }
      }),
      { numRuns: 15 },
    );
    expect(await eventually(() => liveSockets().length <= before.length)).toBe(true);
  });
});

describe('the canned endpoint', () => {
  it('counts whole requests however the stream is cut (generated)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.nat(3000)), { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 8 }), (requests, cuts) => {
        const raws = requests.map(([path, n]) => Buffer.from(`POST /v1/${encodeURIComponent(path)} HTTP/1.1\r\nContent-Length: ${n}\r\n\r\n${'b'.repeat(n)}`));
        const raw = Buffer.concat(raws);
        const ends = raws.map((_, i) => raws.slice(0, i + 1).reduce((n, r) => n + r.length, 0));
        const bounds = [0, ...new Set(cuts.map((c) => c % raw.length))].sort((a, b) => a - b).concat(raw.length);
        const splitter = new RequestSplitter();
        let seen = 0;
        for (let i = 1; i < bounds.length; i++) {
          seen += splitter.feed(raw.subarray(bounds[i - 1], bounds[i])) as number;
          expect(seen).toBe(ends.filter((e) => e <= bounds[i]!).length); // a request counts once its last byte came
        }
      }),
    );
  });

  it('refuses a head past its bound', () => {
    expect(new RequestSplitter().feed(Buffer.alloc(MAX_HEAD_BYTES + 1, 0x61))).toBe('too-big');
  });

  it('answers each request on a keep-alive connection, the last answer repeating', async () => {
    const endpoint = await startCannedEndpoint([sseOf([{ type: 'ping' }]), sseOf([{ type: 'message_stop' }])]);
    try {
      const texts: string[] = [];
      for (let i = 0; i < 3; i++) texts.push(await (await fetch(`${endpoint.url}/v1/messages`, { method: 'POST', body: '{}' })).text());
      expect(texts).toEqual(['event: ping\ndata: {"type":"ping"}\n\n', ...Array(2).fill('event: message_stop\ndata: {"type":"message_stop"}\n\n')]);
      expect(endpoint.answered).toBe(3);
    } finally {
      endpoint.close();
    }
  });
});

describe('the canned endpoint and a local stranger', () => {
  it('keeps none of a long body, and drops a connection whose head grows past its bound', async () => {
    const endpoint = await startCannedEndpoint([sseOf([{ type: 'ping' }])]);
    try {
      const port = Number(new URL(endpoint.url).port);
      const socket = connect(port, '127.0.0.1').resume();
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()).on('error', () => undefined));
      const block = Buffer.alloc(1024 * 1024, 0x61);
      socket.write(`POST /v1/messages HTTP/1.1\r\nContent-Length: ${block.length * 32}\r\n\r\n`);
      for (let i = 0; i < 31; i++) if (!socket.write(block)) await new Promise((r) => socket.once('drain', r));
      socket.write(block.subarray(1)); // one byte short of the body
      socket.write(Buffer.alloc(MAX_HEAD_BYTES + 2, 0x61)); // the last byte (the request answered), then a head that never ends
      await closed;
      expect(endpoint.answered).toBe(1);
    } finally {
      endpoint.close();
    }
  });
});

describe('a warm-up while the answer is awaited', () => {
  const publish = (name: string): void => channel(name).publish({ request: { origin: 'http://test' } });
  const afterTimers = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

  it('runs once after the next request is written, and not when the answer came first', async () => {
    const calls: string[] = [];
    whileAnswerAwaited(() => void calls.push('late answer'), 5);
    whileAnswerAwaited(() => void calls.push('early answer'), 5);
    publish(REQUEST_SENT_CHANNEL); // both armed: each now waits 5 ms
    await afterTimers(5); // timers of one delay fire in the order they were set: theirs first
    expect(calls).toEqual(['late answer', 'early answer']);
    whileAnswerAwaited(() => void calls.push('never'), 5);
    publish(REQUEST_SENT_CHANNEL);
    publish(ANSWER_HEAD_CHANNEL);
    await afterTimers(5);
    publish(REQUEST_SENT_CHANNEL); // once only
    await afterTimers(5);
    expect(calls).toEqual(['late answer', 'early answer']);
  });

  it('drops a throw of the warm-up', async () => {
    let ran = false;
    whileAnswerAwaited(() => {
      ran = true;
      throw new Error('boom');
    }, 0);
    publish(REQUEST_SENT_CHANNEL);
    await afterTimers(1);
    expect(ran).toBe(true);
  });
});
