/**
 * A static check of every `teamd …` command written in the docs, also in
 * ```console blocks (sample sessions against sample state, so they are not
 * run): the command exists and every option it uses is one of that
 * command's options. Renaming a command or a flag without the docs fails here.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { parseShell } from '../../src/tools/shell-words.js';
import { docBlocks } from './support/doc-blocks.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Written {
  where: string;
  words: string[];
}

/** Every teamd command of the sh and console blocks of README.md and docs/*.md. */
async function writtenCommands(): Promise<Written[]> {
  const files = ['README.md', ...(await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const found: Written[] = [];
  for (const file of files) {
    const markdown = await readFile(join(ROOT, file), 'utf8');
    for (const [lang, prompt] of [['sh', ''], ['console', '$ ']] as const) {
      for (const block of docBlocks(markdown, lang)) {
        block.text.split('\n').forEach((line, i) => {
          if (prompt && !line.startsWith(prompt)) return;
          for (const c of parseShell(line.slice(prompt.length)).commands)
            if (c.words[0] === 'teamd') found.push({ where: `${file}:${block.lineNo + 1 + i}`, words: c.words.slice(1) });
        });
      }
    }
  }
  return found;
}

const takesValue = (o: Option): boolean => o.required || o.optional;

/** What is wrong with `teamd <words>` against the program's commands and options; undefined when nothing. */
function problemOf(program: Command, words: string[]): string | undefined {
  let command = program;
  const chain: Command[] = [program];
  let i = 0;
  for (; i < words.length; i++) {
    const sub = command.commands.find((c) => c.name() === words[i] || c.aliases().includes(words[i]!));
    if (!sub) break;
    command = sub;
    chain.push(sub);
  }
  if (command === program && words.length && !words[0]!.startsWith('-')) return `no command "${words[0]}"`;
  const options = chain.flatMap((c) => c.options);
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('-') || word === '-' || /^-\d/.test(word) || word === '--help' || word === '-h') continue;
    const flag = word.split('=')[0]!;
    const option = options.find((o) => o.long === flag || o.short === flag);
    if (!option) return `teamd ${chain.slice(1).map((c) => c.name()).join(' ')}: no option ${flag}`;
    if (takesValue(option) && !word.includes('=') && !option.variadic) i++;
  }
  return undefined;
}

describe('the teamd commands written in the docs', () => {
  it('name commands and options that exist', async () => {
    const program = await buildProgram();
    const written = await writtenCommands();
    expect(written.length).toBeGreaterThan(20);
    const problems = written.flatMap((w) => {
      const problem = problemOf(program, w.words);
      return problem ? [`${w.where}: teamd ${w.words.join(' ')}\n  ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('catches a renamed command or flag', async () => {
    const program = await buildProgram();
    expect(problemOf(program, ['task', 'add', 'x', '--blocked', 'a'])).toBe('teamd task add: no option --blocked');
    expect(problemOf(program, ['tasks', 'ls'])).toBe('no command "tasks"');
    expect(problemOf(program, ['task', 'edit', 'x', '--priority', '-1', '--dir', '.'])).toBeUndefined();
  });
});
