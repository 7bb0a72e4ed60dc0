/**
 * Where a link stored in a tree leads, worked out without a checkout, agrees
 * with the kernel on real files: random trees of folders and symlinks are
 * made on disk and every link that resolves there is compared (generated).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { resolveLink, type LinkEnd } from '../../src/git/link-resolve.js';

const NAMES = ['a', 'b', '.claude', 'hooks'];
const segment = fc.constantFrom(...NAMES, '..', '.');
const place = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 });
const target = fc.oneof(
  fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => s.join('/')),
  fc.constant('/'),
);
const tree = fc.record({
  dirs: fc.array(place, { maxLength: 6 }),
  links: fc.array(fc.tuple(place, target), { minLength: 1, maxLength: 6 }),
});

/** What the kernel says about the link at `rel` under `root`: null when it does not resolve. */
function kernelEnd(root: string, rel: string): LinkEnd | null {
  let real: string;
  try {
    real = realpathSync.native(join(root, rel)); // the kernel's walk: the JS realpathSync folds `x/..` by text
  } catch {
    return null; // dangling, a loop, or through a file
  }
  const inside = relative(root, real);
  if (inside.startsWith('..') || inside.startsWith(sep)) return { kind: 'outside', target: '' };
  return { kind: 'inside', parts: inside === '' ? [] : inside.split(sep) };
}

it('resolves links as the kernel does, through chains, symlinked folders and `..` after a link (generated)', () => {
  let compared = 0;
  fc.assert(
    fc.property(tree, ({ dirs, links }) => {
      const root = realpathSync(mkdtempSync(join(tmpdir(), 'teamd-links-')));
      try {
        for (const d of dirs) mkdirSync(join(root, ...d), { recursive: true });
        const table = new Map<string, string>();
        for (const [at, to] of links) {
          const rel = at.join('/');
          if (table.has(rel) || [...table.keys()].some((k) => rel.startsWith(`${k}/`) || k.startsWith(`${rel}/`))) continue;
          try {
            mkdirSync(dirname(join(root, rel)), { recursive: true });
            symlinkSync(to, join(root, rel));
            table.set(rel, to);
          } catch {
            // a folder is already there, or a link is on the way: not a tree git could hold
          }
        }
        for (const rel of table.keys()) {
          const kernel = kernelEnd(root, rel);
          if (kernel === null) continue;
          const ours = resolveLink(rel, table);
          compared++;
          if (kernel.kind === 'outside') expect(ours.kind, rel).toBe('outside');
          else expect(ours, `${rel} -> ${table.get(rel)}`).toEqual(kernel);
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }),
    { numRuns: 60 },
  );
  expect(compared).toBeGreaterThan(20); // the kernel resolved enough of them to mean something
});

it('reads look-alike names, absolute targets and loops', () => {
  const table = new Map([
    ['docs/x', '../.Claude/./settings.json'],
    ['abs', '/work/main/.claude'],
    ['win', 'C:\\Users\\x'],
    ['l1', 'l2'],
    ['l2', 'l1'],
    ['up', '../..'],
  ]);
  expect(resolveLink('docs/x', table)).toEqual({ kind: 'inside', parts: ['.claude', 'settings.json'] });
  expect(resolveLink('abs', table)).toEqual({ kind: 'outside', target: '/work/main/.claude' });
  expect(resolveLink('win', table).kind).toBe('outside');
  expect(resolveLink('l1', table)).toEqual({ kind: 'loop' });
  expect(resolveLink('up', table).kind).toBe('outside');
});
