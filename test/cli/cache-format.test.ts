/**
 * A code cache file's header and digest (src/cli/cache-format.ts): what was
 * written reads back; a file cut short, with any byte changed, or of another
 * format (an older teamd's `tdc1`) is never given to V8, which checks the
 * data's length but not its bytes and crashed on damaged data.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { decodeCacheFile, encodeCacheFile } from '../../src/cli/cache-format.js';

const data = fc.uint8Array({ minLength: 1, maxLength: 2_000 }).map((a) => Buffer.from(a));
const depth = fc.integer({ min: 0, max: 255 });

it('reads back what it wrote, at every depth', () => {
  fc.assert(
    fc.property(data, depth, (d, k) => {
      expect(decodeCacheFile(encodeCacheFile(d, k))).toEqual({ depth: k, data: d });
    }),
  );
});

it('refuses a file cut short anywhere, or longer than written', () => {
  fc.assert(
    fc.property(data, depth, fc.nat(), (d, k, cut) => {
      const file = encodeCacheFile(d, k);
      expect(decodeCacheFile(file.subarray(0, cut % file.length))).toBeUndefined();
      expect(decodeCacheFile(Buffer.concat([file, Buffer.of(0)]))).toBeUndefined();
    }),
  );
});

it('refuses a file with any byte changed: header, depth, digest or data', () => {
  fc.assert(
    fc.property(data, depth, fc.nat(), fc.integer({ min: 1, max: 255 }), (d, k, at, flip) => {
      const file = Buffer.from(encodeCacheFile(d, k));
      file[at % file.length]! ^= flip;
      expect(decodeCacheFile(file)).toBeUndefined();
    }),
  );
});

it("refuses an older teamd's file (`tdc1`, no digest), garbage and nothing", () => {
  const v8data = Buffer.alloc(100, 9);
  expect(decodeCacheFile(Buffer.concat([Buffer.from('tdc1'), Buffer.of(2), v8data]))).toBeUndefined();
  expect(decodeCacheFile(Buffer.from('not a code cache at all, but long enough to hold a header'))).toBeUndefined();
  expect(decodeCacheFile(Buffer.alloc(0))).toBeUndefined();
  expect(decodeCacheFile(encodeCacheFile(Buffer.alloc(0), 1))).toBeUndefined(); // no data: nothing to give V8
});
