/**
 * Compaction stage 1: the contents of old tool results are replaced by a
 * short marker. The calls stay, so the model still knows what it did and can
 * run a call again if it needs the output.
 */
import type { ContentBlock, ConversationMessage, ToolResultBlock } from '../../model/types.js';
import { blocksOf, recentTurnsStart } from './turns.js';
import { toolResultText } from '../../model/types.js';

export const CLEARED_PREFIX = '[tool result cleared to save context:';

const lengthOf = (block: ToolResultBlock): number => toolResultText(block).length;

function toolNames(messages: readonly ConversationMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const block of blocksOf(message)) if (block.type === 'tool_use') names.set(block.id, block.name);
  }
  return names;
}

function cleared(block: ToolResultBlock, tool: string): ToolResultBlock {
  const content = `${CLEARED_PREFIX} ${tool} returned ${lengthOf(block)} characters; call it again if you need them]`;
  return { ...block, content };
}

const isClearable = (block: ContentBlock): block is ToolResultBlock =>
  block.type === 'tool_result' &&
  !(typeof block.content === 'string' && block.content.startsWith(CLEARED_PREFIX)) &&
  lengthOf(block) > 200;

/** The history with every result before the last `keepTurns` turns cleared; null when there was nothing to clear. */
export function clearOldToolResults(
  messages: readonly ConversationMessage[],
  keepTurns: number,
): ConversationMessage[] | null {
  const keepFrom = recentTurnsStart(messages, keepTurns);
  const names = toolNames(messages);
  let changed = false;
  const next = messages.map((message, i) => {
    if (i >= keepFrom || message.role !== 'user' || !blocksOf(message).some(isClearable)) return message;
    changed = true;
    const content = blocksOf(message).map((b) =>
      isClearable(b) ? cleared(b, names.get(b.tool_use_id) ?? 'the tool') : b,
    );
    return { role: message.role, content };
  });
  return changed ? next : null;
}
