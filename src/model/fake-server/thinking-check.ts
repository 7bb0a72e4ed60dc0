/**
 * The real API's rule for extended thinking in tool use: the thinking and
 * redacted-thinking blocks of a turn go back with its tool results exactly as
 * they came — same text, same signature, same order. Here a changed block
 * fails its signature, and a dropped or reordered one breaks the seal the
 * turn's generated tool_use ids carry (scripted/thinking-signature.ts).
 */
import type { LooseBlock, LooseMessage } from '../scripted/conversation.js';
import {
  sealInToolUseId,
  sealOfThinking,
  verifyRedacted,
  verifyThinking,
} from '../scripted/thinking-signature.js';
import type { MessagesRequestBody } from './types.js';

type Signed = { type: 'thinking'; signature: string } | { type: 'redacted_thinking'; data: string };

const blocksOf = (m: LooseMessage): readonly LooseBlock[] => (typeof m.content === 'string' ? [] : m.content);

function signatureProblem(block: LooseBlock, where: string): string | undefined {
  if (block.type === 'thinking' && !verifyThinking(String(block.thinking), String(block.signature)))
    return `${where}: Invalid \`signature\` in \`thinking\` block`;
  if (block.type === 'redacted_thinking' && !verifyRedacted(String(block.data)))
    return `${where}: Invalid \`data\` in \`redacted_thinking\` block`;
  return undefined;
}

function sealProblem(blocks: readonly LooseBlock[], where: string): string | undefined {
  const thinking = blocks.filter(
    (b) => b.type === 'thinking' || b.type === 'redacted_thinking',
  ) as unknown as Signed[];
  const seal = sealOfThinking(thinking);
  const toolUse = blocks.find((b) => b.type === 'tool_use' && sealInToolUseId(String(b.id)) !== undefined);
  if (!toolUse || sealInToolUseId(String(toolUse.id)) === seal) return undefined;
  if (thinking.length === 0) {
    return (
      `${where}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(blocks[0]?.type)}\`. ` +
      'When `thinking` is enabled, an `assistant` message with `tool_use` blocks must start with the thinking blocks ' +
      'it was answered with, unchanged. To avoid this requirement, disable `thinking`.'
    );
  }
  return `${where}: the \`thinking\` blocks of this tool-use turn were changed, reordered or partly dropped; send them back exactly as received`;
}

/** The first thinking problem of the request, as the API would word it. */
export function thinkingKept(body: MessagesRequestBody): string | undefined {
  for (const [i, m] of body.messages.entries()) {
    if (m.role !== 'assistant') continue;
    const blocks = blocksOf(m);
    for (const [j, block] of blocks.entries()) {
      const problem = signatureProblem(block, `messages.${i}.content.${j}`);
      if (problem) return problem;
    }
    const problem = sealProblem(blocks, `messages.${i}`);
    if (problem) return problem;
  }
  return undefined;
}
