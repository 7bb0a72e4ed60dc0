import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { importsOf, instructionChain, MAX_IMPORT_DEPTH } from '../../../src/agent/context/instructions.js';
import { tempDir } from '../support/workspace.js';

async function put(file: string, text: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, text);
}

describe('CLAUDE.md read the way Claude Code reads it', () => {
  test('user, project, .claude/CLAUDE.md, CLAUDE.local.md and nested folders, in that order', async () => {
    await using dir = await tempDir();
    const home = join(dir.path, 'home');
    const root = join(dir.path, 'repo');
    await put(join(home, '.claude', 'CLAUDE.md'), 'user rules');
    await put(join(root, 'AGENTS.md'), 'agents rules');
    await put(join(root, 'CLAUDE.md'), 'project rules');
    await put(join(root, '.claude', 'CLAUDE.md'), 'dot-claude rules');
    await put(join(root, 'CLAUDE.local.md'), 'my local rules');
    await put(join(root, 'pkg', 'CLAUDE.md'), 'package rules');
    await put(join(root, 'other', 'CLAUDE.md'), 'not on the way');
    const files = await instructionChain(root, join(root, 'pkg'), ['AGENTS.md', 'CLAUDE.md'], { home });
    expect(files.map((f) => [f.path, f.text])).toEqual([
      ['~/.claude/CLAUDE.md', 'user rules'],
      ['AGENTS.md', 'agents rules'],
      ['CLAUDE.md', 'project rules'],
      ['.claude/CLAUDE.md', 'dot-claude rules'],
      ['CLAUDE.local.md', 'my local rules'],
      ['pkg/CLAUDE.md', 'package rules'],
    ]);
    const noUser = await instructionChain(root, root, ['CLAUDE.md'], { home, userDir: null });
    expect(noUser.map((f) => f.path)).toEqual(['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']);
  });

  test('a CLAUDE.md that is a symlink to AGENTS.md is read once', async () => {
    await using dir = await tempDir();
    await put(join(dir.path, 'AGENTS.md'), 'the one file');
    await symlink('AGENTS.md', join(dir.path, 'CLAUDE.md'));
    const files = await instructionChain(dir.path, dir.path, ['AGENTS.md', 'CLAUDE.md'], { userDir: null });
    expect(files).toEqual([{ path: 'AGENTS.md', text: 'the one file' }]);
  });

  test('@imports: relative to the importing file, ~/ from home, each file once, not in code, at most 5 hops', async () => {
    await using dir = await tempDir();
    const home = join(dir.path, 'home');
    const root = join(dir.path, 'repo');
    await put(
      join(root, 'CLAUDE.md'),
      [
        'See @docs/style.md and @~/.claude/mine.md for more.',
        'Mail me at me@example.com. Not an import: `@docs/secret.md`.',
        '```',
        '@docs/also-secret.md',
        '```',
        'Again @docs/style.md, and @missing.md stays text.',
        'Chain: @chain/1.md',
      ].join('\n'),
    );
    await put(join(root, 'docs', 'style.md'), 'Style: see @../AGENTS.md and @./naming.md.');
    await put(join(root, 'docs', 'naming.md'), 'naming rules');
    await put(join(root, 'docs', 'secret.md'), 'secret');
    await put(join(root, 'docs', 'also-secret.md'), 'also secret');
    await put(join(root, 'AGENTS.md'), 'agents');
    await put(join(home, '.claude', 'mine.md'), 'personal');
    for (let i = 1; i <= 7; i++) await put(join(root, 'chain', `${i}.md`), `link ${i} @${i + 1}.md`);
    const files = await instructionChain(root, root, ['AGENTS.md', 'CLAUDE.md'], { home, userDir: null });
    expect(files.map((f) => f.path)).toEqual([
      'AGENTS.md',
      'CLAUDE.md',
      'docs/style.md',
      'docs/naming.md',
      '~/.claude/mine.md',
      ...Array.from({ length: MAX_IMPORT_DEPTH }, (_, i) => `chain/${i + 1}.md`),
    ]);
    expect(files.some((f) => f.text === 'secret' || f.text === 'also secret')).toBe(false);
  });

  test('importsOf skips code spans and fences, e-mail addresses and trailing punctuation', () => {
    expect(importsOf('a @x.md, `@y.md` b@c.d\n~~~\n@z.md\n~~~\n(@w.md) @/abs/p.md.')).toEqual([
      'x.md',
      '/abs/p.md',
    ]);
  });

  test('imports outside the project and the home folder are not read', async () => {
    await using dir = await tempDir();
    const root = join(dir.path, 'repo');
    await put(join(dir.path, 'outside.md'), 'outside');
    await put(join(root, 'CLAUDE.md'), 'see @../outside.md');
    const files = await instructionChain(root, root, ['CLAUDE.md'], {
      home: join(dir.path, 'home'),
      userDir: null,
    });
    expect(files.map((f) => f.path)).toEqual(['CLAUDE.md']);
  });
});

describe('imports written by an untrusted project file never reach secrets in the home folder', () => {
  test('generated @imports at ~/.ssh, ~/.aws, dotfiles under ~/.claude, absolute and ../ paths and links are not read; the user file may', async () => {
    await using dir = await tempDir();
    const home = join(dir.path, 'home');
    const root = join(home, 'work', 'repo'); // a project inside the home folder, as usual
    const secrets = ['.ssh/id_rsa', '.aws/credentials', '.claude/.credentials.json', '.claude/.hidden/notes.md', '.claude/settings.json', '.netrc', 'notes/private.md'];
    for (const s of secrets) await put(join(home, s), `SECRET ${s}`);
    await put(join(home, '.claude', 'mine.md'), 'personal');
    await put(join(home, '.claude', 'CLAUDE.md'), 'user file: @~/notes/private.md');
    await symlink(join(home, '.ssh', 'id_rsa'), join(dir.path, 'link-out'));
    const forms = (s: string) => [`@~/${s}`, `@${join(home, s)}`, `@../../${s}`, `@./../../../home/${s}`];
    const targets = fc.constantFrom(...secrets.flatMap(forms), '@../../../link-out', '@~/.claude/mine.md');
    await fc.assert(
      fc.asyncProperty(fc.array(targets, { minLength: 1, maxLength: 6 }), async (imports) => {
        await put(join(root, 'CLAUDE.md'), `Rules.\n${imports.join('\n')}\n`);
        const files = await instructionChain(root, root, ['CLAUDE.md'], { home, userDir: null });
        expect(files.filter((f) => f.text.includes('SECRET'))).toEqual([]);
        expect(files.some((f) => f.text === 'personal')).toBe(imports.includes('@~/.claude/mine.md'));
      }),
      { numRuns: 60 },
    );
    // the user's own file is trusted with the home folder
    const withUser = await instructionChain(root, root, ['CLAUDE.md'], { home });
    expect(withUser.map((f) => f.text)).toContain('SECRET notes/private.md');
  });
});
