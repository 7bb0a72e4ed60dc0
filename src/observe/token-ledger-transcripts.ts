/**
 * The token ledger's calls from a repository's transcripts
 * (`.team/state/transcripts/<agent>/*.jsonl`): every `assistant` line is one
 * model call, its prompt the conversation folded so far (restarted by a
 * compaction), its tools the session's `init` list, its task the `Task <id>:`
 * the conversation began with (`mail` for a mail session).
 */
import { foldMessages } from '../agent/history.js';
import { ConversationMessageSchema, type ConversationMessage, type Usage } from '../model/types.js';
import { usageOf } from '../model/usage.js';
import { readSessionText } from './transcript-files.js';
import { coordinationOfCall, type LedgerCall, type TeamFacts } from './token-ledger.js';
import {
  parseTranscriptText,
  sessionFiles,
  transcriptAgents,
  type TranscriptLine,
} from './transcript-view.js';

interface SessionState {
  agent: string;
  tools: string[];
  messages: ConversationMessage[];
  task: string;
}

const firstText = (m: ConversationMessage | undefined): string =>
  m === undefined
    ? ''
    : typeof m.content === 'string'
      ? m.content
      : m.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');

export function taskOfConversation(first: ConversationMessage | undefined): string {
  const text = firstText(first);
  const task = /(?:^|\n)Task (\S+):/.exec(text)?.[1];
  if (task) return task;
  return /You have new messages/.test(text) ? 'mail' : 'other';
}

function messageOf(line: TranscriptLine): ConversationMessage | undefined {
  const parsed = ConversationMessageSchema.safeParse(line.message);
  return parsed.success ? (parsed.data) : undefined;
}

function usageOfLine(line: TranscriptLine): Usage | undefined {
  const u = line.usage as Partial<Usage> | undefined;
  return u && typeof u.input_tokens === 'number' ? usageOf(u) : undefined;
}

function accept(state: SessionState, line: TranscriptLine, facts: TeamFacts, out: LedgerCall[]): void {
  if (line.type === 'system' && line.subtype === 'init' && Array.isArray(line.tools))
    state.tools = line.tools.map(String);
  if (line.type === 'system' && line.subtype === 'compact' && Array.isArray(line.messages))
    state.messages = foldMessages(line.messages as ConversationMessage[]);
  const message = line.type === 'user' || line.type === 'assistant' ? messageOf(line) : undefined;
  if (!message) return;
  const usage = line.type === 'assistant' ? usageOfLine(line) : undefined;
  if (usage) {
    const call = { agent: state.agent, tools: state.tools, prompt: state.messages, answer: message };
    out.push({ agent: state.agent, task: state.task, usage, ...coordinationOfCall(call, facts) });
  }
  if (state.messages.length === 0) state.task = taskOfConversation(message);
  state.messages = foldMessages([...state.messages, message]);
}

/** Every model call recorded in the repository's transcripts, in file order per agent. */
export function ledgerCallsFromTranscripts(repoRoot: string, facts: TeamFacts): LedgerCall[] {
  const calls: LedgerCall[] = [];
  for (const agent of transcriptAgents(repoRoot)) {
    for (const file of sessionFiles(repoRoot, agent)) {
      const state: SessionState = { agent, tools: [], messages: [], task: 'other' };
      for (const line of parseTranscriptText(readSessionText(file))) accept(state, line, facts, calls);
    }
  }
  return calls;
}
