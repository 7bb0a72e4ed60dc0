/**
 * Where a history may be cut. A `tool_use` (in an assistant message) is
 * answered by its `tool_result` in the very next (user) message, so a cut
 * just before an assistant message never separates the two: compaction keeps
 * a tail that starts with an assistant message and puts one rebuilt user
 * message in front of it.
 */
import type { ContentBlock, ConversationMessage } from '../../model/types.js';

export const blocksOf = (message: ConversationMessage): ContentBlock[] =>
  typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;

/**
 * The index where the last `turns` turns begin (an assistant message), never
 * 0: the first message is the task and stays. `messages.length` when there is
 * no assistant message after the first message.
 */
export function recentTurnsStart(messages: readonly ConversationMessage[], turns: number): number {
  let found = 0;
  for (let i = messages.length - 1; i >= 1; i--) {
    if (messages[i]!.role !== 'assistant') continue;
    found += 1;
    if (found === turns) return i;
  }
  const first = messages.findIndex((m, i) => i >= 1 && m.role === 'assistant');
  return first === -1 ? messages.length : first;
}

const idsOf = (message: ConversationMessage | undefined, type: 'tool_use' | 'tool_result'): string[] =>
  message === undefined
    ? []
    : blocksOf(message).flatMap((b) =>
        b.type === type ? [b.type === 'tool_use' ? b.id : (b as { tool_use_id: string }).tool_use_id] : [],
      );

/** What the Messages API would refuse in this history's shape (empty when it is valid). */
export function historyProblems(messages: readonly ConversationMessage[]): string[] {
  const problems: string[] = [];
  if (messages[0] !== undefined && messages[0].role !== 'user')
    problems.push('the first message is not a user message');
  messages.forEach((message, i) => {
    if (i > 0 && messages[i - 1]!.role === message.role)
      problems.push(`messages ${i - 1} and ${i} have the same role`);
    if (message.role === 'assistant') {
      const answered = new Set(idsOf(messages[i + 1], 'tool_result'));
      const open = idsOf(message, 'tool_use').filter((id) => !answered.has(id));
      if (open.length > 0 && i < messages.length - 1)
        problems.push(`message ${i}: unanswered tool_use ${open.join(', ')}`);
    } else {
      const asked = new Set(idsOf(messages[i - 1], 'tool_use'));
      const stray = idsOf(message, 'tool_result').filter((id) => !asked.has(id));
      if (stray.length > 0)
        problems.push(`message ${i}: tool_result without its tool_use ${stray.join(', ')}`);
    }
  });
  return problems;
}
