/**
 * What the package promises, checked without building it: `files` names what
 * exists, `exports` and `bin` point at compiled sources, and the runtime
 * dependencies are exactly the packages the sources import at run time. The
 * packed-and-installed check is test/faults/full/package-install.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './support/examples.js';
import { packageOf, runtimePackages, runtimeSpecifiers } from './support/imports.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  files: string[];
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** `./dist/x/y.js` → `src/x/y.ts` (or `.tsx`). */
const sourceOf = (built: string): string => built.replace(/^\.?\/?dist\//, 'src/').replace(/\.(d\.ts|js)$/, '.ts');

describe('package.json', () => {
  test('every `files` entry but the build output exists in the repository', () => {
    for (const entry of pkg.files.filter((f) => f !== 'dist')) expect(existsSync(join(ROOT, entry)), entry).toBe(true);
  });

  test('every export and bin target is built from a source file', () => {
    const targets = [...Object.values(pkg.bin), ...Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [] : [t.types, t.default]))];
    for (const target of targets) {
      expect(target, target).toMatch(/^\.?\/?dist\//);
      expect(existsSync(join(ROOT, sourceOf(target))), `${target} ← ${sourceOf(target)}`).toBe(true);
    }
  });

  test('the runtime dependencies are exactly what the sources import at run time', () => {
    const used = runtimePackages(join(ROOT, 'src'));
    const unlisted = [...used.keys()].filter((name) => !(name in pkg.dependencies));
    expect(unlisted.map((n) => `${n} (imported by ${used.get(n)})`)).toEqual([]);
    expect(Object.keys(pkg.dependencies).filter((name) => !used.has(name))).toEqual([]);
    expect(pkg.devDependencies).toHaveProperty('tsx'); // only the .ts entries load it (npm run teamd, tests)
  });
});

describe('the import scan', () => {
  test('keeps what stays in the JavaScript and drops what TypeScript erases', () => {
    const source = [
      "import type { A } from 'erased';",
      "import { type B } from 'kept-inline';",
      "import {\n  c,\n  d,\n} from '@scope/multi/sub';",
      "export type { E } from 'erased-too';",
      "export { f } from 'reexported';",
      "import 'side-effect';",
      "const g = await import('dynamic');",
      "import { h } from './relative.js';",
      "import { i } from 'node:fs';",
    ].join('\n');
    const names = runtimeSpecifiers(source).map(packageOf).filter((n) => n !== null);
    expect(names.sort()).toEqual(['@scope/multi', 'dynamic', 'kept-inline', 'reexported', 'side-effect']);
  });
});
