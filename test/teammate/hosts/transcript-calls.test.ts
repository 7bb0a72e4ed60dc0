/**
 * An out-of-process teammate's transcript, written by the lead: the lines
 * a teammate's writer sends, wired straight to the lead's handler over real
 * files, make the same file a thread teammate's writer makes; a call naming
 * another agent, another folder or too much text is refused.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTranscript, TranscriptWriter } from '../../../src/agent/transcript.js';
import type { AgentEvent } from '../../../src/agent/types.js';
import { answerStoreCall, type StoreCallTargets } from '../../../src/lead/store-calls.js';
import { MailboxStore } from '../../../src/store/mailbox/index.js';
import { TaskStore } from '../../../src/store/tasks/index.js';
import { StoreCalls } from '../../../src/teammate/hosts/store-client.js';
import { chunksOf, TRANSCRIPT_CHUNK } from '../../../src/teammate/hosts/transcript-client.js';
import { transcriptsDir } from '../../../src/teammate/runtime-factory.js';
import type { FromWorker } from '../../../src/teammate/types.js';

let dir = '';
let targets: StoreCallTargets;
let answered: Promise<unknown>[] = [];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'teamd-transcript-calls-'));
  targets = { repoRoot: dir, tasks: await TaskStore.open(dir), mailbox: new MailboxStore(dir, { roster: ['ann', 'lead'] }), granted: () => false };
  answered = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `name`'s opener, its transcripts folder named as a remote machine would (another root). */
function teammateOpener(name: string, remoteRoot = '/elsewhere/clone') {
  const calls: StoreCalls = new StoreCalls((m: FromWorker) => {
    if (m.type !== 'store_call') return;
    answered.push(answerStoreCall(name, m, targets).then((r) => r.type === 'store_result' && calls.receive(r.callId, r.ok, r.value, r.error)));
  });
  return { root: transcriptsDir(remoteRoot, name), open: calls.leadWrites(transcriptsDir(remoteRoot, name)).openTranscript, calls };
}

const header = (agent = 'ann', session = 's1') => ({ session_id: session, agent, model: 'm', cwd: '/w', created: '2026-12-01T00:00:00.000Z' });
const events: AgentEvent[] = [
  { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Task t1: go 😀' }] } },
  { type: 'stream_event', event: { type: 'text_delta', text: 'wr' } },
  { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'wrote \u{1F600} '.repeat(40_000) }] } },
] as unknown as AgentEvent[];

describe('transcripts through the lead', () => {
  it('the lead writes the same file a thread teammate writes, in the lead\'s repository, subagents included', async () => {
    const { root, open } = teammateOpener('ann');
    for (const [folder, agent] of [['', 'ann'], ['subagents', 'ann:explore']] as const) {
      const sent = open(folder === '' ? root : join(root, folder), header(agent));
      const local = TranscriptWriter.open(join(dir, 'thread', folder), header(agent));
      if (!sent.ok || !local.ok) throw new Error('not opened');
      for (const e of events) for (const w of [sent.value, local.value]) w.write(e);
      sent.value.close();
      local.value.close();
      await Promise.all(answered);
      expect(sent.value.error).toBeNull();
      const written = readFileSync(join(transcriptsDir(dir, 'ann'), folder, 's1.jsonl'), 'utf8');
      expect(written).toBe(readFileSync(join(dir, 'thread', folder, 's1.jsonl'), 'utf8'));
    }
    const loaded = await loadTranscript(transcriptsDir(dir, 'ann'), 's1');
    expect(loaded.ok && loaded.value.messages.length).toBe(2);
  });

  it('a transcript of another agent, outside the own folder, or too large is refused with its reason', async () => {
    const call = (args: unknown) => answerStoreCall('ann', { type: 'store_call', callId: 'c', store: 'files', method: 'transcript', args: [args] }, targets);
    const ok = { folder: '', header: header(), text: '{"type":"x"}\n' };
    expect(await call({ ...ok, header: header('bob') })).toMatchObject({ ok: false, error: expect.stringMatching(/of "bob" sent by "ann"/) });
    expect(await call({ ...ok, header: header('annie') })).toMatchObject({ ok: false, error: expect.stringMatching(/"annie" sent by "ann"/) });
    for (const folder of ['..', '../bob', '/etc', 'subagents/../..'])
      expect(await call({ ...ok, folder })).toMatchObject({ ok: false, error: expect.stringMatching(/folder/) });
    expect(await call({ ...ok, text: 'x'.repeat(TRANSCRIPT_CHUNK + 1) })).toMatchObject({ ok: false, error: expect.stringMatching(/text/) });
    expect(await call({ ...ok, header: header('ann', '../../x') })).toMatchObject({ ok: true }); // sanitised to a name in the folder
    expect(await call(ok)).toMatchObject({ ok: true });
    expect(readFileSync(join(transcriptsDir(dir, 'ann'), 's1.jsonl'), 'utf8').split('\n')[1]).toBe('{"type":"x"}');
  });

  it('a teammate opener refuses a folder outside its own transcripts folder', () => {
    const { root, open } = teammateOpener('ann');
    expect(open(join(root, '..', 'bob'), header()).ok).toBe(false);
  });

  it('chunks join back to the text, none too long, no surrogate pair split', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 1, max: 16 }), (text, max) => {
        const pieces = chunksOf(text, max);
        expect(pieces.join('')).toBe(text);
        for (const p of pieces) {
          expect(p.length).toBeLessThanOrEqual(max);
          expect(p.length).toBeGreaterThan(0);
          if (p.length > 1) expect(/[\uD800-\uDBFF]$/.test(p)).toBe(false);
        }
      }),
    );
  });
});
