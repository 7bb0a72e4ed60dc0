/** Reading Claude Code's stdout: hostile lines never throw, known events keep their shape, chunks split anywhere. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter, MAX_LINE_BYTES, parseLine } from '../../../../src/teammate/engines/claude-code/stream.js';

const result = {
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: 'done',
  num_turns: 2,
  total_cost_usd: 0.5,
  usage: { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 5, cache_creation_input_tokens: 6, service_tier: 'standard' },
  session_id: 's',
};

describe('parseLine', () => {
  it('reads init, messages, results, and keeps other events as they are', () => {
    expect(parseLine(JSON.stringify({ type: 'system', subtype: 'init', session_id: 's', model: 'm' })).kind).toBe('init');
    expect(parseLine(JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' }, isReplay: true })).kind).toBe('message');
    const r = parseLine(JSON.stringify(result));
    expect(r.kind === 'result' && r.event.usage.cache_creation_input_tokens).toBe(6);
    expect(parseLine(JSON.stringify({ type: 'system', subtype: 'task_started' })).kind).toBe('other');
  });

  it('names what is wrong with a line that is not an event', () => {
    expect(parseLine('not json')).toMatchObject({ kind: 'junk', problem: expect.stringContaining('not JSON') });
    expect(parseLine('[1,2]')).toMatchObject({ kind: 'junk', problem: expect.stringContaining('not a JSON object') });
    expect(parseLine('null')).toMatchObject({ kind: 'junk' });
    expect(parseLine('{"x":1}')).toMatchObject({ kind: 'junk', problem: 'a line without a "type"' });
    expect(parseLine('{"type":"result","subtype":3}')).toMatchObject({ kind: 'junk', problem: expect.stringContaining('subtype') });
    expect(parseLine('{"type":"assistant","message":"x"}')).toMatchObject({ kind: 'junk', problem: expect.stringContaining('message') });
  });

  it('a result with wrong counts or cost reads them as 0 instead of failing the turn', () => {
    const r = parseLine(JSON.stringify({ ...result, num_turns: -1, total_cost_usd: 'a lot', usage: { input_tokens: 1.5 } }));
    expect(r.kind).toBe('result');
    if (r.kind === 'result') expect([r.event.num_turns, r.event.total_cost_usd, r.event.usage.input_tokens]).toEqual([0, 0, 0]);
  });

  it('never throws on generated lines: any string, any JSON value, events with fields replaced by anything', () => {
    const known = fc.constantFrom('result', 'user', 'assistant', 'system');
    const hostileEvent = fc
      .tuple(known, fc.dictionary(fc.string(), fc.anything()), fc.anything())
      .map(([type, extra, message]) => JSON.stringify({ ...result, ...extra, type, subtype: extra['subtype'] ?? 'init', message }));
    const line = fc.oneof(fc.string(), fc.json(), fc.anything().map((v) => JSON.stringify(v) ?? ''), hostileEvent);
    fc.assert(
      fc.property(line, (l) => {
        const read = parseLine(l);
        expect(['init', 'message', 'result', 'other', 'junk']).toContain(read.kind);
        if (read.kind === 'junk') expect(read.problem.length).toBeLessThan(1000);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('LineSplitter', () => {
  it('gives the same lines however the bytes are cut (multi-byte characters included)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }).map((s) => s.replace(/\n/g, ' ')), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 10 }), (lines, cuts) => {
        const bytes = Buffer.from(lines.map((l) => `${l}\n`).join(''));
        const got: string[] = [];
        const splitter = new LineSplitter((l) => got.push(l), () => undefined);
        let at = 0;
        for (const c of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
          splitter.push(bytes.subarray(at, c));
          at = c;
        }
        splitter.push(bytes.subarray(at));
        splitter.flush();
        expect(got).toEqual(lines.filter((l) => l.trim()));
      }),
      { numRuns: 500 },
    );
  });

  it('drops a line past the limit without holding it, and reads the next one', () => {
    const got: string[] = [];
    const long: number[] = [];
    const splitter = new LineSplitter((l) => got.push(l), (n) => long.push(n));
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    for (let i = 0; i <= MAX_LINE_BYTES / chunk.length; i++) splitter.push(chunk);
    splitter.push(Buffer.from('\n{"type":"x"}\n'));
    expect(long).toEqual([MAX_LINE_BYTES + chunk.length]);
    expect(got).toEqual(['{"type":"x"}']);
  });

  it('hands over a last line without a newline on flush', () => {
    const got: string[] = [];
    const splitter = new LineSplitter((l) => got.push(l), () => undefined);
    splitter.push(Buffer.from('{"a":1}\n{"b"'));
    splitter.push(Buffer.from(':2}'));
    splitter.flush();
    expect(got).toEqual(['{"a":1}', '{"b":2}']);
  });
});
