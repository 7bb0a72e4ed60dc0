/**
 * Generated streams, spoiled at random (closing events dropped, the stream cut
 * anywhere): the assembler and `judgeStreamEnd` never turn a spoiled stream
 * into a success with content the model did not send. A success is always a
 * prefix of whole blocks of the real answer; a cut inside a block is an error;
 * a stream with no block at all and no `message_stop` asks for a non-streaming
 * request.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { streamEventsOf } from '../../src/model/fake-server/respond.js';
import { MessageAssembler } from '../../src/model/message-assembler.js';
import { judgeStreamEnd } from '../../src/model/stream-end.js';
import type { ContentBlock } from '../../src/model/types.js';
import { usageOf } from '../../src/model/usage.js';
import type { WireStreamEvent } from '../../src/model/wire.js';

const block = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }).map((text): ContentBlock => ({ type: 'text', text })),
  fc
    .record({ id: fc.stringMatching(/^toolu_[a-z0-9]{1,8}$/), command: fc.string({ maxLength: 30 }) })
    .map(({ id, command }): ContentBlock => ({ type: 'tool_use', id, name: 'bash', input: { command } })),
);
const DROPPABLE = ['message_delta', 'message_stop', 'content_block_stop', 'ping'] as const;

it('a spoiled stream is a prefix of whole blocks, an error, or a call for a non-streaming request', () => {
  fc.assert(
    fc.property(
      fc.array(block, { maxLength: 4 }),
      fc.subarray([...DROPPABLE]),
      fc.nat(),
      (content, dropped, cutAt) => {
        const all = streamEventsOf({
          id: 'm',
          model: 'x',
          content,
          stopReason: 'end_turn',
          usage: usageOf(),
        });
        const kept = all.filter((e) => !(dropped as string[]).includes(e.type));
        const events = kept.slice(0, cutAt % (kept.length + 1));
        const assembler = new MessageAssembler();
        for (const event of events) assembler.accept(event);
        const judged = judgeStreamEnd(assembler);
        const got = assembler.message().content;
        const openBlock = opened(events) > closed(events);
        if (openBlock) expect(judged.kind).toBe('broken');
        if (judged.kind === 'ok') {
          expect(got).toEqual(content.slice(0, got.length));
          if (got.length === 0) expect(events.some((e) => e.type === 'message_stop')).toBe(true);
        }
        if (judged.kind === 'empty') expect(got).toEqual([]);
        if (events.length === all.length) expect(judged).toEqual({ kind: 'ok', stopReason: 'end_turn' });
      },
    ),
    { numRuns: 500 },
  );
});

const opened = (events: WireStreamEvent[]) => events.filter((e) => e.type === 'content_block_start').length;
const closed = (events: WireStreamEvent[]) => events.filter((e) => e.type === 'content_block_stop').length;
