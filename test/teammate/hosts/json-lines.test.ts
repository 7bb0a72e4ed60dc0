import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonLines } from '../../../src/teammate/hosts/json-lines.js';

/** Feeds `chunks` to a reader and collects what it gives, until the stream ends. */
async function read(chunks: string[], maxChars?: number): Promise<{ values: unknown[]; broken: string[] }> {
  const stream = new PassThrough();
  const values: unknown[] = [];
  const broken: string[] = [];
  readJsonLines(stream, { value: (v) => values.push(v), broken: (r) => broken.push(r) }, maxChars);
  const ended = new Promise((r) => stream.on('end', r));
  for (const c of chunks) stream.write(c);
  stream.end();
  await ended;
  return { values, broken };
}

/** `text` cut at the given points. */
const cut = (text: string, points: number[]): string[] => {
  const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  return [...at, text.length].map((end, i) => text.slice(i === 0 ? 0 : at[i - 1], end));
};

describe('JSON lines', () => {
  it('gives every value once, in order, however the bytes are cut', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), async (values, points) => {
        const text = values.map((v) => JSON.stringify(v) + '\n').join('');
        const got = await read(cut(text, points));
        expect(got.broken).toEqual([]);
        expect(got.values).toEqual(JSON.parse(JSON.stringify(values)));
      }),
      { numRuns: 150 },
    );
  });

  it('a line that is not JSON breaks the channel once, naming the line; nothing after it is read', async () => {
    const got = await read(['{"a":1}\n', 'not json\n', '{"b":2}\n']);
    expect(got.values).toEqual([{ a: 1 }]);
    expect(got.broken).toHaveLength(1);
    expect(got.broken[0]).toMatch(/^line 2 is not JSON/);
  });

  it('an over-long line breaks the channel before it is all buffered, with or without its newline', async () => {
    const endless = await read(['{"a":"', 'x'.repeat(60), 'x'.repeat(60)], 100);
    expect(endless.broken).toEqual(['line 1 is longer than 100 characters']);
    const long = await read(['[1]\n', `"${'y'.repeat(200)}"\n`, '[2]\n'], 100);
    expect(long.values).toEqual([[1]]);
    expect(long.broken).toEqual(['line 2 is longer than 100 characters']);
  });

  it('blank lines are skipped, and a value split inside a multi-byte character arrives whole', async () => {
    const bytes = Buffer.from('\n"é✓"\n\n', 'utf8');
    const stream = new PassThrough();
    const values: unknown[] = [];
    readJsonLines(stream, { value: (v) => values.push(v), broken: () => values.push('BROKEN') });
    const ended = new Promise((r) => stream.on('end', r));
    for (let i = 0; i < bytes.length; i++) stream.write(bytes.subarray(i, i + 1));
    stream.end();
    await ended;
    expect(values).toEqual(['é✓']);
  });
});
