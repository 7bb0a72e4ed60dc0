/**
 * The scripted conversations both clients run: the same answers, with each
 * client's own tool names (teamd `bash`/`read`, Claude Code `Bash`/`Read`).
 */
import { claudeCodeToolName } from '../../src/tools/claude-names.js';

export type Client = 'claude' | 'teamd';

export interface Conversation {
  name: string;
  prompt: string;
  /** The model's answers in order; each tool call is `[tool, input]`. */
  answers: ({ text: string } | { tool: string; input: Record<string, unknown> })[];
}

export const READ_FILE = 'note.txt';

export const CONVERSATIONS: Conversation[] = [
  { name: 'text', prompt: 'Say hello.', answers: [{ text: 'Hello.' }] },
  {
    name: 'bash, 2 turns',
    prompt: 'Echo one word.',
    answers: [{ tool: 'bash', input: { command: 'echo one' } }, { text: 'It printed one.' }],
  },
  {
    name: 'bash, 3 turns',
    prompt: 'Echo two words, one at a time.',
    answers: [
      { tool: 'bash', input: { command: 'echo one' } },
      { tool: 'bash', input: { command: 'echo two' } },
      { text: 'It printed one, then two.' },
    ],
  },
  {
    name: 'read',
    prompt: `Read ${READ_FILE}.`,
    answers: [{ tool: 'read', input: { file_path: READ_FILE } }, { text: 'It says hello.' }],
  },
];

/** The fake server's script for one run of `conversation` by `client` (read paths made absolute in `cwd`). */
export function scriptFor(conversation: Conversation, client: Client, cwd: string): { steps: unknown[] } {
  const toolName = (t: string): string => (client === 'claude' ? claudeCodeToolName(t) : t);
  return {
    steps: conversation.answers.map((a) =>
      'text' in a
        ? { content: [{ type: 'text', text: a.text }] }
        : {
            content: [
              {
                type: 'tool_use',
                name: toolName(a.tool),
                input: a.tool === 'read' ? { file_path: `${cwd}/${READ_FILE}` } : a.input,
              },
            ],
          },
    ),
  };
}
