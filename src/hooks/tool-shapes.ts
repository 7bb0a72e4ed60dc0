/**
 * Tool calls as a Claude Code hook sees them: its tool names, its input
 * shapes (`file_path` absolute), and `tool_response` in the shape Claude
 * Code gives each tool (built from teamd's input and output text; fields
 * teamd cannot know exactly are filled as docs/AGENT.md says).
 */
import path from 'node:path';
import { claudeCodeToolName } from '../tools/claude-names.js';

const PATH_KEYS = ['file_path', 'notebook_path'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The input with its file paths made absolute (from `cwd`, where the agent's shell is). */
export function claudeToolInput(input: unknown, cwd: string): unknown {
  if (!isRecord(input)) return input;
  const out = { ...input };
  for (const key of PATH_KEYS) if (typeof out[key] === 'string') out[key] = path.resolve(cwd, out[key]);
  return out;
}

export interface ToolRun {
  /** teamd's or Claude Code's name. */
  tool: string;
  /** Claude Code's input shape (see `claudeToolInput`). */
  input: Record<string, unknown>;
  content: string;
  isError: boolean;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const linesOf = (text: string): string[] =>
  text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('['));
/** teamd's read output numbers its lines (`   12\ttext`); Claude Code's response holds the plain text. */
const unnumbered = (text: string): string =>
  text
    .replace(/\n\n\[lines [^\]]*\]$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\d+\t/, ''))
    .join('\n');

type Shaper = (run: ToolRun) => unknown;

const SHAPES: Record<string, Shaper> = {
  Bash: (r) => ({
    // teamd's bash says `(no output)` to the model; Claude Code's object holds the empty output
    stdout: r.content === '(no output)' ? '' : r.content,
    stderr: '',
    interrupted: false,
    isImage: false,
    noOutputExpected: false,
  }),
  Read: (r) => {
    const content = unnumbered(r.content);
    const numLines = content === '' ? 0 : content.split('\n').length;
    const startLine = typeof r.input.offset === 'number' ? r.input.offset : 1;
    return {
      type: 'text',
      file: { filePath: str(r.input.file_path), content, numLines, startLine, totalLines: numLines },
    };
  },
  Write: (r) => ({
    type: r.content.startsWith('Created') ? 'create' : 'update',
    filePath: str(r.input.file_path),
    content: str(r.input.content),
    structuredPatch: [],
    originalFile: null,
  }),
  Edit: (r) => ({
    filePath: str(r.input.file_path),
    oldString: str(r.input.old_string),
    newString: str(r.input.new_string),
    originalFile: null,
    structuredPatch: [],
    userModified: false,
    replaceAll: r.input.replace_all === true,
  }),
  Glob: (r) => {
    const filenames = linesOf(r.content);
    return { filenames, durationMs: 0, numFiles: filenames.length, truncated: false };
  },
  Grep: (r) => {
    const mode = str(r.input.output_mode) || 'files_with_matches';
    const lines = linesOf(r.content);
    if (mode === 'files_with_matches') return { mode, filenames: lines, numFiles: lines.length };
    return { mode, filenames: [], numFiles: 0, content: r.content, numLines: lines.length };
  },
  TodoWrite: (r) => ({ oldTodos: [], newTodos: Array.isArray(r.input.todos) ? r.input.todos : [] }),
  Task: (r) => ({ status: 'completed', content: [{ type: 'text', text: r.content }] }),
};

/** `tool_response` for PostToolUse. An MCP tool's is its content blocks; a tool Claude Code lacks gets its text. */
export function claudeToolResponse(run: ToolRun): unknown {
  const name = claudeCodeToolName(run.tool);
  if (name.startsWith('mcp__')) return [{ type: 'text', text: run.content }];
  const shape = SHAPES[name];
  return shape === undefined ? run.content : shape(run);
}
