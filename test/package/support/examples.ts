/** The library examples of the docs: every ```ts block of README.md and docs/LIBRARY.md that imports teamd. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..', '..');
export const EXAMPLE_DOCS = ['README.md', 'docs/LIBRARY.md'];

export interface DocExample {
  /** `docs/LIBRARY.md:42` — where the block starts. */
  where: string;
  code: string;
}

export function docExamples(): DocExample[] {
  const found: DocExample[] = [];
  for (const doc of EXAMPLE_DOCS) {
    const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.trim() !== '```ts') continue;
      const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
      const code = lines.slice(i + 1, end).join('\n');
      if (/from 'teamd(\/testing)?'/.test(code)) found.push({ where: `${doc}:${i + 1}`, code: `${code}\n` });
      i = end;
    }
  }
  return found;
}

/** The example with its `teamd` imports pointing at these sources instead of the package. */
export function againstSources(code: string): string {
  return code
    .replace(/from 'teamd\/testing'/g, `from ${JSON.stringify(join(ROOT, 'src', 'testing.ts'))}`)
    .replace(/from 'teamd'/g, `from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))}`);
}
