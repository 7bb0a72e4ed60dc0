/** The fenced code blocks of a Markdown file, and the `teamd` command lines of its shell blocks. */

export interface DocBlock {
  /** The line of the opening fence (1-based). */
  lineNo: number;
  text: string;
}

export interface DocCommand {
  file: string;
  lineNo: number;
  /** The line as bash runs it (continuations joined). */
  line: string;
  /** The line without its trailing `# comment`: how docs-examples.skip.json names it. */
  command: string;
}

/** Every block fenced with ```<lang> (exactly that language tag). */
export function docBlocks(markdown: string, lang: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  let open: { lineNo: number; lines: string[] } | undefined;
  markdown.split('\n').forEach((line, i) => {
    if (!open && line.trim() === '```' + lang) open = { lineNo: i + 1, lines: [] };
    else if (open && line.trim() === '```') {
      blocks.push({ lineNo: open.lineNo, text: open.lines.join('\n') });
      open = undefined;
    } else open?.lines.push(line);
  });
  return blocks;
}

/** A line runs teamd when `teamd` is its first word or follows a pipe, `;` or `&&`. */
const RUNS_TEAMD = /(^|[|;&]\s*)teamd(\s|$)/;

/** The teamd command lines of each ```sh and ```bash block, one list per block, in order. */
export function docCommands(file: string, markdown: string): DocCommand[][] {
  return [...docBlocks(markdown, 'sh'), ...docBlocks(markdown, 'bash')]
    .map((block) => commandsOf(file, block))
    .filter((commands) => commands.length > 0);
}

function commandsOf(file: string, block: DocBlock): DocCommand[] {
  const commands: DocCommand[] = [];
  const lines = block.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const lineNo = block.lineNo + 1 + i;
    let line = lines[i]!;
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i]!.trim()}`;
    const command = stripComment(line).trim();
    if (RUNS_TEAMD.test(command)) commands.push({ file, lineNo, line: line.trim(), command });
  }
  return commands;
}

/** `teamd status   # who does what` → `teamd status`; a `#` inside quotes stays. */
export function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}
