import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AnthropicModel,
  RecordingModel,
  ScriptedModel,
  createModelClient,
  loadScript,
  startFakeAnthropicServer,
  type ConversationMessage,
  type FakeAnthropicServer,
  type ModelClient,
} from '../../src/model/index.js';
import { FAST_BACKOFF, collect, requestOf, tools, type Done } from './support.js';

let dir: string;
let server: FakeAnthropicServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamd-record-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A two-turn task with a tool call, then a call that fails: the same requests for recording and replay. */
async function session(model: ModelClient): Promise<Done[]> {
  const first = await collect(
    model,
    requestOf('Task fix-42: fix the $PATH bug', { tools, agent: 'worker-1' }),
  );
  const call = first.done.message.content.find((b) => b.type === 'tool_use')!;
  const messages: ConversationMessage[] = [
    { role: 'user', content: 'Task fix-42: fix the $PATH bug' },
    first.done.message,
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: call.id, content: 'PATH=/usr/bin (1 match)' }],
    },
  ];
  const second = await collect(model, requestOf('', { messages, tools, agent: 'worker-1' }));
  const third = await collect(model, requestOf('summarise everything', { agent: 'lead' }));
  return [first.done, second.done, third.done];
}

const comparable = (d: Done) => ({
  content: d.message.content,
  stopReason: d.stopReason,
  error: d.error?.kind,
});

describe('RecordingModel', () => {
  it('records answers from the real SDK path and ScriptedModel replays them offline', async () => {
    server = await startFakeAnthropicServer({
      script: {
        rules: [
          {
            match: 'Task (\\S+):',
            content: [
              { type: 'text', text: 'Looking.' },
              { type: 'tool_use', name: 'bash', input: { command: 'grep -n "$$PATH" src/$1.ts' } },
            ],
          },
          { afterTool: 'bash', content: [{ type: 'text', text: 'Fixed it; cost me $$0.' }] },
        ],
      },
    });
    server.inject({ kind: 'prompt_too_long', match: { text: 'summarise' } });
    const file = join(dir, 'rec.json');
    const live = await createModelClient('claude-sonnet-5-5', {
      apiKey: 'test-key',
      baseURL: server.url,
      record: file,
    });
    expect(live).toBeInstanceOf(RecordingModel);
    const recorded = await session(live);
    expect(recorded[0]!.message.content[1]).toMatchObject({
      input: { command: 'grep -n "$PATH" src/fix-42.ts' },
    });
    expect(recorded[2]!.error?.kind).toBe('prompt_too_long');

    const script = await loadScript(file);
    expect(script.ok && script.value.steps.map((s) => s.agent)).toEqual(['worker-1', 'worker-1', 'lead']);
    expect(script.ok && script.value.model).toBe('claude-sonnet-5-5');

    const replay = await createModelClient(`scripted:rec.json`, { cwd: dir });
    expect(replay).toBeInstanceOf(ScriptedModel);
    const replayed = await session(replay);
    expect(replayed.map(comparable)).toEqual(recorded.map(comparable));
    (replay as ScriptedModel).assertComplete();
  });

  it('in ordered mode keys steps by agent only, replaying in recorded order', async () => {
    const file = join(dir, 'ordered.json');
    let n = 0;
    const inner = new ScriptedModel({
      rules: [{ times: 'always', content: [{ type: 'text', text: 'answer' }] }],
    });
    const numbered: ModelClient = {
      model: 'numbering',
      async *stream(request) {
        for await (const e of inner.stream(request)) {
          yield e.type === 'done'
            ? { ...e, message: { role: 'assistant', content: [{ type: 'text', text: `answer ${++n}` }] } }
            : e;
        }
      },
    };
    const recorder = new RecordingModel(numbered, { file, mode: 'ordered' });
    await collect(recorder, requestOf('one', { agent: 'a' }));
    await collect(recorder, requestOf('two', { agent: 'a' }));
    const replay = await ScriptedModel.fromFile(file);
    const texts = [];
    for (const text of ['anything', 'else'])
      texts.push((await collect(replay, requestOf(text, { agent: 'a' }))).done.message.content);
    expect(texts).toEqual([[{ type: 'text', text: 'answer 1' }], [{ type: 'text', text: 'answer 2' }]]);
    const raw = JSON.parse(await readFile(file, 'utf8')) as { steps: { match?: string }[] };
    expect(raw.steps.every((s) => s.match === undefined)).toBe(true);
  });

  it('startFile empties a recording, and an invalid existing file is reported, not thrown', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, '{"steps": 3}');
    const recorder = new RecordingModel(
      new ScriptedModel({ steps: [{ content: [{ type: 'text', text: 'x' }] }] }),
      { file },
    );
    const { done } = await collect(recorder, requestOf('go'));
    expect(done.stopReason).toBe('end_turn');
    expect(recorder.errors[0]).toMatch(/broken\.json.*steps/);
    await RecordingModel.startFile(file);
    await collect(
      new RecordingModel(new ScriptedModel({ steps: [{ content: [{ type: 'text', text: 'y' }] }] }), {
        file,
      }),
      requestOf('go'),
    );
    const loaded = await loadScript(file);
    expect(loaded.ok && loaded.value.steps).toHaveLength(1);
  });

  it('several processes recording into one file at once lose no step', async () => {
    const run = promisify(execFile);
    const child = join(import.meta.dirname, 'fixtures', 'record-child.ts');
    for (let round = 0; round < 2; round++) {
      const file = join(dir, `race-${round}.json`);
      const agents = ['w1', 'w2', 'w3'];
      await Promise.all(
        agents.map((agent) => run(process.execPath, ['--import', 'tsx', child, file, agent, '6'])),
      );
      const loaded = await loadScript(file);
      if (!loaded.ok) throw new Error(loaded.error);
      expect(loaded.value.steps).toHaveLength(18);
      for (const agent of agents) {
        const texts = loaded.value.steps.filter((s) => s.agent === agent).map((s) => s.content[0]);
        expect(texts).toEqual(
          [0, 1, 2, 3, 4, 5].map((i) => ({ type: 'text', text: `echo: ${agent} call ${i}` })),
        );
      }
    }
  });
});

describe('createModelClient', () => {
  it('makes an AnthropicModel for a model name and rejects a bad script naming the file', async () => {
    const anthropic = await createModelClient('claude-opus-5-5', {
      apiKey: 'k',
      baseURL: 'http://127.0.0.1:9',
      maxTokens: 10,
    });
    expect(anthropic).toBeInstanceOf(AnthropicModel);
    expect(anthropic.model).toBe('claude-opus-5-5');
    await writeFile(
      join(dir, 'bad.json'),
      JSON.stringify({ rules: [{ times: 0, content: [{ type: 'text', text: 'x' }] }] }),
    );
    await expect(createModelClient('scripted:bad.json', { cwd: dir })).rejects.toThrow(
      /bad\.json: invalid script: rules\.0\.times/,
    );
  });

  it('caps max_tokens at the configured bound', async () => {
    server = await startFakeAnthropicServer({
      script: { steps: [{ content: [{ type: 'text', text: 'ok' }] }] },
    });
    const model = new AnthropicModel({
      model: 'claude-haiku-5-5',
      apiKey: 'test-key',
      baseURL: server.url,
      maxTokens: 64,
      backoff: FAST_BACKOFF,
    });
    await collect(model, requestOf('hi', { maxTokens: 4096 }));
    expect(server.requests[0]!.body!.max_tokens).toBe(64);
  });
});

it('a recorder whose file changed while it held the lock (a takeover after a stall) fails its write: the other step stays', async () => {
  const file = join(dir, 'fenced.json');
  await RecordingModel.startFile(file);
  const other = {
    description: 'Recorded by teamd',
    steps: [{ content: [{ type: 'text', text: 'by the other recorder' }] }],
  };
  // Just before the commit: another recorder (that took the lock over) wrote its step.
  const beforeCommit = (target: string) =>
    void (target === file && writeFileSync(target, JSON.stringify(other)));
  const recorder = new RecordingModel(
    new ScriptedModel({ steps: [{ content: [{ type: 'text', text: 'mine' }] }] }),
    {
      file,
      lock: { beforeCommit },
    },
  );
  await collect(recorder, requestOf('go'));
  expect(recorder.errors.join('\n')).toMatch(/fenced\.json.*lost race/);
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(other);
});
