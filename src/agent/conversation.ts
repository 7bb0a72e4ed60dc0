/**
 * The runtime's conversation: appends messages by the history rules and hands
 * back the `user`/`assistant` event bodies that record each change, so the
 * event stream (and a transcript of it) always describes the history exactly.
 */
import type { ContentBlock, ConversationMessage, ToolResultBlock } from '../model/types.js';
import type { EventBody } from './events.js';
import { appendMessage, missingResults, textBlocks } from './history.js';
import type { ModelDone } from './turn.js';

export class Conversation {
  private history: ConversationMessage[];

  constructor(messages: ConversationMessage[] = []) {
    this.history = [...messages];
  }

  get messages(): readonly ConversationMessage[] {
    return this.history;
  }

  /** A copy of the list to send (messages are never mutated in place, so it stays as sent). */
  snapshot(): ConversationMessage[] {
    return [...this.history];
  }

  get endsWithUser(): boolean {
    return this.history.at(-1)?.role === 'user';
  }

  /** Results still owed to the last assistant message (after a crash or an abandoned run). */
  owedResults(): ToolResultBlock[] {
    return missingResults(this.history);
  }

  addUser(blocks: ContentBlock[]): EventBody | null {
    const content = textBlocks(blocks);
    if (content.length === 0) return null;
    const message: ConversationMessage = { role: 'user', content };
    appendMessage(this.history, message);
    return { type: 'user', message };
  }

  /** Replaces the whole history (a compaction; the caller emits the event recording it). */
  replace(messages: readonly ConversationMessage[]): void {
    this.history = [...messages];
  }

  addAssistant(done: ModelDone): EventBody | null {
    const content = textBlocks(done.message.content);
    if (content.length === 0) return null;
    const message: ConversationMessage = { role: 'assistant', content };
    appendMessage(this.history, message);
    return { type: 'assistant', message, model: done.model, usage: done.usage, stop_reason: done.stopReason };
  }
}
