/**
 * The conversation as the Messages API takes it, and the rules that keep it
 * acceptable: roles alternate (a user message that follows a user message is
 * merged into it), no empty text blocks, and every `tool_use` is answered by a
 * `tool_result` in the next message. The history is a fold of the runtime's
 * `user`/`assistant` events, so a transcript rebuilds it exactly.
 */
import type { ContentBlock, ConversationMessage, ToolResultBlock, ToolUseBlock } from '../model/types.js';

export const INTERRUPTED_RESULT = 'interrupted: the run was stopped before this tool call finished';

export function textBlocks(input: string | ContentBlock[]): ContentBlock[] {
  const blocks = typeof input === 'string' ? [{ type: 'text' as const, text: input }] : input;
  return blocks.filter((b) => b.type !== 'text' || b.text.length > 0);
}

function blocksOf(message: ConversationMessage): ContentBlock[] {
  return typeof message.content === 'string' ? textBlocks(message.content) : message.content;
}

/** Appends `message`, merging it into the last message when both have the same role. */
export function appendMessage(history: ConversationMessage[], message: ConversationMessage): void {
  const content = blocksOf(message);
  if (content.length === 0) return;
  const last = history.at(-1);
  // replaced, not mutated: a model client may still hold the previous snapshot
  if (last && last.role === message.role) {
    history[history.length - 1] = { role: last.role, content: [...blocksOf(last), ...content] };
  } else {
    history.push({ role: message.role, content: [...content] });
  }
}

export function foldMessages(messages: ConversationMessage[]): ConversationMessage[] {
  const history: ConversationMessage[] = [];
  for (const message of messages) appendMessage(history, message);
  return history;
}

export const toolUsesOf = (message: ConversationMessage): ToolUseBlock[] =>
  blocksOf(message).filter((b): b is ToolUseBlock => b.type === 'tool_use');

export const interruptedResult = (toolUseId: string, text = INTERRUPTED_RESULT): ToolResultBlock => ({
  type: 'tool_result',
  tool_use_id: toolUseId,
  content: text,
  is_error: true,
});

/**
 * The results a history ending in an assistant message still owes: one
 * synthesised `interrupted` result per unanswered tool_use (empty when none).
 */
export function missingResults(history: readonly ConversationMessage[]): ToolResultBlock[] {
  const last = history.at(-1);
  if (!last || last.role !== 'assistant') return [];
  return toolUsesOf(last).map((use) => interruptedResult(use.id));
}

/** The text of the last assistant message: a run's answer. */
export function finalText(history: readonly ConversationMessage[]): string {
  const last = history.findLast((m) => m.role === 'assistant');
  if (!last) return '';
  return blocksOf(last)
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('');
}
