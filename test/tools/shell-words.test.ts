import { describe, expect, it } from 'vitest';
import { parseShell } from '../../src/tools/shell-words.js';

describe('parseShell', () => {
  it('splits simple commands at operators and removes quotes', () => {
    const parsed = parseShell(`ls -la && echo "hi there" | grep 'x y' ; a\\ b`);
    expect(parsed.error).toBeNull();
    expect(parsed.commands.map((c) => [c.words, c.next])).toEqual([
      [['ls', '-la'], '&&'],
      [['echo', 'hi there'], '|'],
      [['grep', 'x y'], ';'],
      [['a b'], null],
    ]);
    expect(parsed.commands[1]?.text).toBe('echo "hi there"');
  });

  it('separates redirections and their file descriptors', () => {
    const [cmd] = parseShell('make > out.log 2>&1 < in.txt').commands;
    expect(cmd?.words).toEqual(['make']);
    expect(cmd?.redirects).toEqual([
      { op: '>', fd: null, target: 'out.log' },
      { op: '>&', fd: 2, target: '1' },
      { op: '<', fd: null, target: 'in.txt' },
    ]);
  });

  it('finds nested commands in $(…), backticks, <(…) and unquoted here-documents', () => {
    const parsed = parseShell(
      'echo $(git status) `whoami` "a $(b "c") d" <(ls x) $((1+2))\ncat <<EOF\n$(inner)\nEOF\ncat <<\'Q\'\n$(literal)\nQ',
    );
    expect(parsed.substitutions).toEqual(['git status', 'whoami', 'b "c"', 'ls x', 'inner']);
  });

  it('finds commands inside arithmetic expansions (an array subscript runs them)', () => {
    expect(parseShell('echo $(( a[$(touch X)] + 1 ))').substitutions).toEqual(['touch X']);
    expect(parseShell('echo $(( `id` ))').substitutions).toEqual(['id']);
  });

  it('skips comments and here-document bodies', () => {
    const parsed = parseShell('cat <<-END > f # comment; rm -rf /\n\tbody; rm x\n\tEND\necho done');
    expect(parsed.commands.map((c) => c.words)).toEqual([['cat'], ['echo', 'done']]);
  });

  it('reports what is wrong with text it cannot read', () => {
    expect(parseShell('echo "open').error).toContain('double quote');
    expect(parseShell("echo 'open").error).toContain('single quote');
    expect(parseShell('echo $(open').error).toContain('parenthesis');
    expect(parseShell('cat <<EOF\nno end').error).toContain('here-document');
    expect(parseShell('echo >').error).toContain('needs a target');
    expect(parseShell(`${'echo $('.repeat(33)}ls${')'.repeat(33)}`).error).toContain('nested too deeply');
    expect(parseShell(`${'echo $('.repeat(30)}ls${')'.repeat(30)}`).error).toBeNull();
  });
});
