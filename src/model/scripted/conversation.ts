/**
 * What a script can match a call on, read from the conversation. Works on
 * teamd's messages and on raw wire messages alike (extra fields and unknown
 * block types are ignored), so the fake server shares it.
 */

export interface LooseBlock {
  type: string;
  [field: string]: unknown;
}
export interface LooseMessage {
  role: string;
  content: string | readonly LooseBlock[];
}

/** One model call as a script sees it. */
export interface ScriptCall {
  agent?: string | undefined;
  messages: readonly LooseMessage[];
}

export interface CallFacts {
  agent: string | undefined;
  /** Text of the latest user message, tool_result contents included. */
  latestUserText: string;
  /** Text of the first user message (the task prompt). */
  firstUserText: string;
  /** Assistant messages so far. */
  turn: number;
  /** Names of the tools whose results the latest user message carries. */
  afterTools: string[];
}

export function factsOf(call: ScriptCall): CallFacts {
  const users = call.messages.filter((m) => m.role === 'user');
  return {
    agent: call.agent,
    latestUserText: users.length ? textOf(users[users.length - 1]!) : '',
    firstUserText: users.length ? textOf(users[0]!) : '',
    turn: call.messages.filter((m) => m.role === 'assistant').length,
    afterTools: toolsAnswered(call.messages),
  };
}

export function textOf(message: LooseMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map(blockText)
    .filter((t) => t !== '')
    .join('\n');
}

function blockText(block: LooseBlock): string {
  if (block.type === 'text') return typeof block.text === 'string' ? block.text : '';
  if (block.type !== 'tool_result') return '';
  const { content } = block;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as LooseBlock[]).map(blockText).join('\n');
}

function toolsAnswered(messages: readonly LooseMessage[]): string[] {
  // Claude Code may end a request with a `role: "system"` reminder after the tool results
  const last = messages.findLast((m) => m.role !== 'system');
  if (!last || last.role !== 'user' || typeof last.content === 'string') return [];
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_use') names.set(String(b.id), String(b.name));
  }
  return last.content
    .filter((b) => b.type === 'tool_result')
    .map((b) => names.get(String(b.tool_use_id)))
    .filter((n): n is string => n !== undefined);
}
