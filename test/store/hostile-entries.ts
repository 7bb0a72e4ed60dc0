/**
 * Hostile entries a test drops into a team folder: links out of the
 * repository (to a file holding a secret marker, to /dev/zero), dangling
 * links, FIFOs, folders and nested-too-deep JSON, each next to valid files.
 * Shared by the store tests and the fault tests with a real lead.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

/** A string that must never appear in any output, event or problem. */
export const SECRET = 'SECRET-MARKER-7f3a9c-do-not-echo';

/** A file outside the repository whose content is the secret (as /etc/shadow would be). */
export function secretFile(outsideDir: string): string {
  mkdirSync(outsideDir, { recursive: true });
  const file = join(outsideDir, 'shadow');
  writeFileSync(file, `root:${SECRET}:19000:0:99999:7:::\n`);
  return file;
}

/** JSON text nested `depth` deep inside `key` of an object: `{"subject":"s","metadata":{"a":[[[…]]]}}`. */
export const deepTaskText = (depth: number): string =>
  `{"subject":"deep","metadata":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;

export const mkfifo = (path: string): void => {
  execFileSync('mkfifo', [path]);
};

/** Every kind of hostile entry, as `<name>.json` in `folder`; returns the names. */
export function dropHostileEntries(folder: string, outsideDir: string) {
  const secret = secretFile(outsideDir);
  const names = {
    secretLink: 'to-secret',
    zeroLink: 'to-zero',
    dangling: 'dangling',
    fifo: 'a-fifo',
    folder: 'a-folder',
    deep: 'deep',
    relativeLink: 'rel-secret',
  };
  mkdirSync(folder, { recursive: true });
  symlinkSync(secret, join(folder, `${names.secretLink}.json`));
  symlinkSync('/dev/zero', join(folder, `${names.zeroLink}.json`));
  symlinkSync(join(outsideDir, 'no-such-file'), join(folder, `${names.dangling}.json`));
  mkfifo(join(folder, `${names.fifo}.json`));
  mkdirSync(join(folder, `${names.folder}.json`));
  writeFileSync(join(folder, `${names.deep}.json`), deepTaskText(5_000));
  symlinkSync(`../../${outsideDir.split('/').at(-1)}/shadow`, join(folder, `${names.relativeLink}.json`));
  return names;
}

/** One generated hostile entry: what it is, and what its file holds or points at. */
export type HostileEntry =
  | { kind: 'deep'; depth: number; closed: boolean; pattern: number[] }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'big'; size: number }
  | { kind: 'link'; to: 'secret' | 'zero' | 'dangling' | 'repo-file' | 'folder' }
  | { kind: 'fifo' }
  | { kind: 'folder' };

/** Random nesting (objects and arrays mixed, maybe left open), random bytes, random sizes around the cap, links, FIFOs. */
export const hostileEntry = (maxBytes: number): fc.Arbitrary<HostileEntry> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('deep' as const),
      depth: fc.integer({ min: 65, max: 20_000 }),
      closed: fc.boolean(),
      pattern: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 8 }),
    }),
    fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 2_000 }) }),
    fc.record({ kind: fc.constant('big' as const), size: fc.integer({ min: maxBytes + 1, max: maxBytes + 100_000 }) }),
    fc.record({
      kind: fc.constant('link' as const),
      to: fc.constantFrom('secret' as const, 'zero' as const, 'dangling' as const, 'repo-file' as const, 'folder' as const),
    }),
    fc.constant({ kind: 'fifo' as const }),
    fc.constant({ kind: 'folder' as const }),
  );

/** `{"k":[{"k":…` to `depth`, following `pattern` (0 object, 1 array, 2 array holding a string with brackets). */
function nestedText(e: Extract<HostileEntry, { kind: 'deep' }>): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < e.depth; i++) {
    const p = e.pattern[i % e.pattern.length]!;
    open.push(p === 0 ? '{"k":' : p === 1 ? '[' : '["]}[{\\"",');
    close.push(p === 0 ? '}' : ']');
  }
  return `{"subject":"nested","metadata":${open.join('')}1${e.closed ? close.reverse().join('') : ''}}`;
}

/** Puts `entry` at `path`; `repoFile` is a regular file inside the repository, `outside` a folder outside it. */
export function placeEntry(entry: HostileEntry, path: string, outside: string, repoFile: string): void {
  if (entry.kind === 'deep') writeFileSync(path, nestedText(entry));
  else if (entry.kind === 'bytes') writeFileSync(path, entry.bytes);
  else if (entry.kind === 'big') writeFileSync(path, `{"subject":"${'b'.repeat(entry.size)}"}`);
  else if (entry.kind === 'fifo') mkfifo(path);
  else if (entry.kind === 'folder') mkdirSync(path);
  else {
    const to = { secret: secretFile(outside), zero: '/dev/zero', dangling: join(outside, 'gone'), 'repo-file': repoFile, folder: outside };
    symlinkSync(to[entry.to], path);
  }
}
