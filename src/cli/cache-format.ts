/**
 * A code cache file (code-cache.ts): the header `tdc2`, the depth of the run
 * that made it (one byte, cache-depth.ts), a SHA-256 digest of the depth
 * byte and the data (32 bytes), then V8's data.
 *
 * The digest is against damage, not against another user (the owner and
 * mode checks of cache-trust.ts are): a release build of V8 checks a code
 * cache's length, its version, its flags and the source's length, not its
 * bytes (`--verify-snapshot-checksum` is off), so a cache with a few bytes
 * flipped or a block of zeros — a write torn by a crash — crashed every run
 * in V8's deserialiser (SIGSEGV, a fatal check), and a crashed run never
 * writes the cache again (docs/DECISIONS.md "The code cache trusts only its
 * owner's files"). A file without this header (an older teamd's `tdc1`, or
 * garbage) is not given to V8 either.
 *
 * Imports Node's built-in modules only: this runs before the bundle. node:crypto
 * is loaded when a cache is read or written (the bundles load it anyway), not
 * by the launcher of every command (`teamd --version`: ms saved).
 */
import { createRequire } from 'node:module';

const MAGIC = Buffer.from('tdc2');
const DIGEST_BYTES = 32;
const HEADER_BYTES = MAGIC.length + 1 + DIGEST_BYTES;

type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;
const cryptoModule = (): Crypto => (crypto ??= createRequire(import.meta.url)('node:crypto') as Crypto);

const digestOf = (depth: Buffer, data: Buffer): Buffer => cryptoModule().createHash('sha256').update(depth).update(data).digest();

/** `data` as a cache file made by a run of `depth`. */
export function encodeCacheFile(data: Buffer, depth: number): Buffer {
  const depthByte = Buffer.of(depth);
  return Buffer.concat([MAGIC, depthByte, digestOf(depthByte, data), data]);
}

/** A cache file's V8 data and the depth of the run that made it; undefined for a file of another format or a damaged one. */
export function decodeCacheFile(file: Buffer): { depth: number; data: Buffer } | undefined {
  if (file.length <= HEADER_BYTES || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const depthByte = file.subarray(MAGIC.length, MAGIC.length + 1);
  const data = file.subarray(HEADER_BYTES);
  if (!digestOf(depthByte, data).equals(file.subarray(MAGIC.length + 1, HEADER_BYTES))) return undefined;
  return { depth: depthByte[0]!, data };
}
