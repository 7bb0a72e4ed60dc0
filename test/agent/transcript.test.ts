import { readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import {
  TranscriptWriter,
  loadTranscript,
  sanitizeSessionName,
  transcriptPath,
} from '../../src/agent/transcript.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';
import { countingTool } from './support/probe-tools.js';
import { MODEL_KINDS, invalidRequests, modelFixture } from './support/models.js';
import { collect, tempDir } from './support/workspace.js';

const lines = async (file: string): Promise<Record<string, unknown>[]> =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe.each(MODEL_KINDS)('transcripts (%s)', (kind) => {
  test('a session is saved as JSONL and resumed by id in a new runtime', async () => {
    await using dir = await tempDir();
    const transcripts = join(dir.path, 'transcripts');
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [{ type: 'tool_use', name: 'count', input: { to: 3 } }] },
        { match: '1 2 3', content: [{ type: 'text', text: 'Counted to three.' }] },
        { match: 'What did you count', turn: 2, content: [{ type: 'text', text: 'To three, before.' }] },
      ],
    });
    const first = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [countingTool],
      transcriptDir: transcripts,
      sessionId: 'count-session',
    });
    const run = await collect(first.submitMessage('Count to three.'));
    await first.close();
    const file = join(transcripts, 'count-session.jsonl');
    const saved = await lines(file);
    expect(saved[0]).toMatchObject({
      type: 'header',
      version: 1,
      session_id: 'count-session',
      agent: 'agent',
      cwd: dir.path,
    });
    expect(saved.slice(1).map((l) => l.uuid)).toEqual(run.events.map((e) => e.uuid));
    const loaded = await loadTranscript(transcripts, 'count-session');
    expect(loaded.ok && loaded.value.messages).toEqual(first.messages);

    const resumed = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [countingTool],
      transcriptDir: transcripts,
      resume: 'count-session',
    });
    const next = await collect(resumed.submitMessage('What did you count?'));
    expect(next.result).toMatchObject({ subtype: 'success', result: 'To three, before.' });
    expect(resumed.sessionId).toBe('count-session');
    expect(resumed.messages).toHaveLength(first.messages.length + 2);
    await resumed.close();
    expect((await lines(file)).filter((l) => l.type === 'header')).toHaveLength(1);
    fixture.script.assertComplete();
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('a transcript cut after an unanswered tool_use (a crash) resumes with an interrupted result', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [{ match: 'interrupted[\\s\\S]*Carry on', content: [{ type: 'text', text: 'Carrying on.' }] }],
    });
    const header = {
      type: 'header',
      version: 1,
      session_id: 'crashed',
      agent: 'agent',
      model: 'm',
      cwd: dir.path,
      created: new Date().toISOString(),
    };
    const base = { session_id: 'crashed', parent_id: null, depth: 0 };
    const saved = [
      header,
      {
        ...base,
        uuid: 'u1',
        type: 'user',
        message: { role: 'user', content: [{ type: 'text', text: 'Count.' }] },
      },
      {
        ...base,
        uuid: 'u2',
        type: 'assistant',
        model: 'm',
        usage: {},
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_lost', name: 'count', input: { to: 2 } }],
        },
      },
    ];
    await writeFile(
      join(dir.path, 'crashed.jsonl'),
      saved.map((l) => JSON.stringify(l)).join('\n') + '\n{"torn',
    );
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [countingTool],
      transcriptDir: dir.path,
      resume: 'crashed',
    });
    const { result } = await collect(runtime.submitMessage('Carry on'));
    expect(result).toMatchObject({ subtype: 'success', result: 'Carrying on.' });
    expect(invalidRequests(fixture)).toEqual([]);
  });
});

describe('session names', () => {
  test('are sanitised to ids and never resolve outside the transcripts folder', async () => {
    await using dir = await tempDir();
    expect(sanitizeSessionName('../x')).toEqual({ ok: true, value: 'x' });
    expect(sanitizeSessionName('/etc/passwd')).toEqual({ ok: true, value: 'etc_passwd' });
    expect(sanitizeSessionName('a/../../b')).toEqual({ ok: true, value: 'a_____b' });
    expect(sanitizeSessionName('../..')).toMatchObject({ ok: false });
    for (const name of ['../x', '/etc/passwd', '..', 'a/../../b', '~root', 'x'.repeat(200)]) {
      const path = transcriptPath(dir.path, name);
      if (path.ok) expect(path.value.startsWith(dir.path + '/')).toBe(true);
      if (path.ok) expect(path.value.slice(dir.path.length + 1)).not.toContain('/');
    }
  });

  test('a runtime given a hostile session name writes only inside the folder', async () => {
    await using dir = await tempDir();
    const transcripts = join(dir.path, 'transcripts');
    const model = new ScriptedModel({ steps: [{ content: [{ type: 'text', text: 'ok' }] }] });
    const runtime = new AgentRuntime({
      model,
      cwd: dir.path,
      tools: [],
      transcriptDir: transcripts,
      sessionId: '../escaped',
    });
    await collect(runtime.submitMessage('hi'));
    await runtime.close();
    expect(runtime.sessionId).toBe('escaped');
    expect(await readdir(transcripts)).toEqual(['escaped.jsonl']);
    expect(await readdir(dir.path)).toEqual(['transcripts']);
  });

  test('a symlink planted as a transcript is neither followed for writing nor for reading', async () => {
    await using dir = await tempDir();
    await using outside = await tempDir('teamd-outside-');
    const target = join(outside.path, 'victim.jsonl');
    await writeFile(target, 'precious\n');
    await symlink(target, join(dir.path, 'evil.jsonl'));
    const opened = TranscriptWriter.open(dir.path, {
      session_id: 'evil',
      agent: 'a',
      model: 'm',
      cwd: dir.path,
      created: 'now',
    });
    expect(opened).toMatchObject({ ok: false });
    expect(await loadTranscript(dir.path, 'evil')).toMatchObject({ ok: false });

    const model = new ScriptedModel({ steps: [] });
    const runtime = new AgentRuntime({
      model,
      cwd: dir.path,
      tools: [],
      transcriptDir: dir.path,
      sessionId: 'evil',
    });
    const { result } = await collect(runtime.submitMessage('hi'));
    expect(result).toMatchObject({ subtype: 'error_during_execution' });
    expect(result.error).toContain('cannot open transcript');
    expect(await readFile(target, 'utf8')).toBe('precious\n');
  });

  test('resuming a session with no transcript, or a file that is not one, is an error result', async () => {
    await using dir = await tempDir();
    await writeFile(join(dir.path, 'foreign.jsonl'), '{"hello":"world"}\n');
    const model = new ScriptedModel({ steps: [] });
    for (const [resume, message] of [
      ['missing', 'ENOENT'],
      ['foreign', 'not a version 1 transcript header'],
    ] as const) {
      const runtime = new AgentRuntime({ model, cwd: dir.path, tools: [], transcriptDir: dir.path, resume });
      const { result } = await collect(runtime.submitMessage('hi'));
      expect(result.subtype).toBe('error_during_execution');
      expect(result.error).toContain(message);
    }
  });
});
