/**
 * The fake server as an Anthropic-compatible endpoint (`compatible: true`),
 * the way Ollama, llama.cpp's server, vLLM and LiteLLM describe theirs:
 * - the token only as `Authorization: Bearer` (an `x-api-key` alone is refused);
 * - usage with `input_tokens` and `output_tokens` only: no cache accounting
 *   (`cache_control` marks are accepted and ignored);
 * - no thinking: the `thinking` parameter is ignored, no thinking blocks come back;
 * - no token counting route (`/v1/messages/count_tokens` is a 404);
 * - `GET /v1/models` in the OpenAI list shape those servers share.
 * Model names are whatever the client sends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ContentBlock, Usage } from '../types.js';

export function bearerOnly(req: IncomingMessage, token: string): boolean {
  return /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] === token;
}

/** All input counted as input: such a server has no cache to read from. */
export const compatibleUsage = (usage: Usage): Pick<Usage, 'input_tokens' | 'output_tokens'> => ({
  input_tokens: usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
  output_tokens: usage.output_tokens,
});

const THINKING = new Set(['thinking', 'redacted_thinking']);

export const withoutThinking = (content: ContentBlock[]): ContentBlock[] =>
  content.filter((block) => !THINKING.has(block.type));

/** `GET /v1/models` as an OpenAI-style list. */
export function sendModelList(res: ServerResponse, ids: string[]): void {
  const data = ids.map((id) => ({ id, object: 'model', created: 1_767_225_600, owned_by: 'local' }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ object: 'list', data }));
}
