/**
 * How full the context is, in tokens. The API's usage of the latest call is
 * the truth (input, cache reads and writes, and the answer it produced); what
 * was added since, or everything when no call reported usage yet, is
 * estimated at four characters a token (the JSON of the request), which
 * errs on the high side for code and English.
 */
import type { ConversationMessage, ToolDefinition, Usage } from '../../model/types.js';
import { estimateTokens, estimateToolTokens } from '../../model/usage.js';

export interface RequestParts {
  system: string;
  tools: readonly ToolDefinition[];
  messages: readonly ConversationMessage[];
}

export const estimateMessages = (messages: readonly ConversationMessage[]): number =>
  messages.length === 0 ? 0 : estimateTokens(JSON.stringify(messages));

export const estimateRequest = (request: RequestParts): number =>
  estimateTokens(request.system) + estimateToolTokens(request.tools) + estimateMessages(request.messages);


/** Every token the call's context held: its input (cached or not) and the answer, which is now history too. */
export const contextTokensOf = (usage: Usage): number =>
  usage.input_tokens +
  usage.cache_read_input_tokens +
  usage.cache_creation_input_tokens +
  usage.output_tokens;

export class ContextMeter {
  private reported: { tokens: number; messageCount: number } | null = null;

  /** After a model call: its usage covers the first `messages.length` messages (the answer included). */
  observe(usage: Usage, messages: readonly ConversationMessage[]): void {
    const tokens = contextTokensOf(usage);
    this.reported = tokens > 0 ? { tokens, messageCount: messages.length } : null;
  }

  /** The history was rewritten: the last usage no longer describes it. */
  reset(): void {
    this.reported = null;
  }

  measure(request: RequestParts): number {
    const known = this.reported;
    if (known === null || request.messages.length < known.messageCount) return estimateRequest(request);
    return known.tokens + estimateMessages(request.messages.slice(known.messageCount));
  }
}
