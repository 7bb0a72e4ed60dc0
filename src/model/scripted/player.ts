/**
 * Plays a script: picks the entry that answers a call (rules first, then the
 * earliest fitting unused step; see schema.ts), counts what was used, and
 * remembers calls nothing answered. `take` is synchronous, so concurrent
 * callers on one event loop each get their own entry, never the same one.
 */
import { randomBytes } from 'node:crypto';
import { modelError } from '../errors.js';
import {
  isThinkingBlock,
  type ContentBlock,
  type ModelError,
  type StopReason,
  type Usage,
} from '../types.js';
import { factsOf, type CallFacts, type ScriptCall } from './conversation.js';
import { agentRegexParts, type Script, type ScriptBlock, type ScriptEntry } from './schema.js';
import { markToolUseId, sealRedacted, signThinking, withoutSeal } from './thinking-signature.js';
import { capturesOf, substitute, substituteDeep, type Captures } from './substitute.js';

/** An entry's answer with captures filled in and tool_use ids assigned. */
export interface ResolvedAnswer {
  content: ContentBlock[];
  stopReason: StopReason;
  usage?: Partial<Usage>;
  delayMs: number;
  error?: ModelError;
  /** Which entry answered, e.g. `rules[2] "worker writes"`. */
  source: string;
}

export type ScriptTake = { ok: true; answer: ResolvedAnswer } | { ok: false; error: ModelError };

export interface EntryUse {
  /** `steps[3]` or `rules[0]`, with the entry's name when it has one. */
  label: string;
  used: number;
  times: number | 'always';
}
export interface UnmatchedCall {
  agent: string | undefined;
  text: string;
}
export interface ScriptReport {
  complete: boolean;
  unusedSteps: EntryUse[];
  unusedRules: EntryUse[];
  unmatched: UnmatchedCall[];
}

interface Compiled {
  entry: ScriptEntry;
  label: string;
  agent: (name: string | undefined) => boolean;
  match?: RegExp;
  conversation?: RegExp;
  times: number | 'always';
  used: number;
}

export class ScriptPlayer {
  readonly #rules: Compiled[];
  readonly #steps: Compiled[];
  readonly #unmatched: UnmatchedCall[] = [];

  constructor(
    script: Script,
    readonly source = 'script',
  ) {
    this.#rules = script.rules.map((r, i) => compile(r, `rules[${i}]`, r.times));
    this.#steps = script.steps.map((s, i) => compile(s, `steps[${i}]`, 1));
  }

  take(call: ScriptCall): ScriptTake {
    const facts = factsOf(call);
    for (const candidate of [...this.#rules, ...this.#steps]) {
      if (candidate.times !== 'always' && candidate.used >= candidate.times) continue;
      const captures = matchEntry(candidate, facts);
      if (!captures) continue;
      candidate.used++;
      return { ok: true, answer: resolve(candidate, captures) };
    }
    this.#unmatched.push({ agent: facts.agent, text: facts.latestUserText });
    return { ok: false, error: unmatchedError(this.source, facts) };
  }

  report(): ScriptReport {
    const unused = (list: Compiled[]): EntryUse[] =>
      list
        .filter((c) => c.times !== 'always' && c.used < c.times)
        .map((c) => ({ label: c.label, used: c.used, times: c.times }));
    const report = {
      unusedSteps: unused(this.#steps),
      unusedRules: unused(this.#rules),
      unmatched: [...this.#unmatched],
    };
    const complete = !report.unusedSteps.length && !report.unusedRules.length && !report.unmatched.length;
    return { complete, ...report };
  }

  /** Throws an error listing unused steps and rules and unanswered calls, if any. */
  assertComplete(): void {
    const report = this.report();
    if (!report.complete) throw new Error(describeReport(this.source, report));
  }
}

export function describeReport(source: string, report: ScriptReport): string {
  const lines = [`${source}: the script was not played completely`];
  for (const u of [...report.unusedSteps, ...report.unusedRules]) {
    lines.push(`  unused: ${u.label} (used ${u.used} of ${u.times})`);
  }
  for (const c of report.unmatched)
    lines.push(`  unanswered call from ${agentName(c.agent)}: ${excerpt(c.text)}`);
  return lines.join('\n');
}

function compile(entry: ScriptEntry, where: string, times: number | 'always'): Compiled {
  const flags = entry.flags ?? '';
  return {
    entry,
    label: entry.name ? `${where} "${entry.name}"` : where,
    agent: agentTest(entry.agent),
    ...(entry.match !== undefined ? { match: new RegExp(entry.match, flags) } : {}),
    ...(entry.conversation !== undefined ? { conversation: new RegExp(entry.conversation, flags) } : {}),
    times,
    used: 0,
  };
}

function agentTest(agent: string | undefined): (name: string | undefined) => boolean {
  if (agent === undefined) return () => true;
  const parts = agentRegexParts(agent);
  if (!parts) return (name) => name === agent;
  const pattern = new RegExp(parts.source, parts.flags);
  return (name) => name !== undefined && pattern.test(name);
}

function matchEntry(c: Compiled, facts: CallFacts): Captures | undefined {
  const { entry } = c;
  if (!c.agent(facts.agent)) return undefined;
  if (entry.turn !== undefined && entry.turn !== facts.turn) return undefined;
  if (entry.afterTool !== undefined && !facts.afterTools.includes(entry.afterTool)) return undefined;
  const match = c.match ? c.match.exec(facts.latestUserText) : null;
  if (c.match && !match) return undefined;
  const conversation = c.conversation ? c.conversation.exec(facts.firstUserText) : null;
  if (c.conversation && !conversation) return undefined;
  return capturesOf(match, conversation);
}

function resolve(c: Compiled, captures: Captures): ResolvedAnswer {
  const { entry } = c;
  const generated = new Set<string>();
  const content = entry.content.map((block): ContentBlock => {
    if (block.type === 'text') return { type: 'text', text: substitute(block.text, captures) };
    if (block.type === 'thinking' || block.type === 'redacted_thinking')
      return thinkingBlock(block, captures);
    const given = block.id === undefined ? undefined : substitute(block.id, captures);
    // a recorded id keeps its old seal: it is resealed for the blocks played now
    const id = given === undefined ? newToolUseId() : withoutSeal(given);
    if (given === undefined || id !== given) generated.add(id);
    return {
      type: 'tool_use',
      id,
      name: substitute(block.name, captures),
      input: substituteDeep(block.input, captures),
    };
  });
  sealToolUses(content, generated);
  const stopReason =
    entry.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  const answer: ResolvedAnswer = { content, stopReason, delayMs: entry.delayMs ?? 0, source: c.label };
  if (entry.usage) answer.usage = entry.usage;
  if (entry.error) {
    const message = substitute(
      entry.error.message ?? `injected ${entry.error.kind} error (${c.label})`,
      captures,
    );
    answer.error = modelError(entry.error.kind, message, entry.error.status);
  }
  return answer;
}

/** Generated tool_use ids of a turn with thinking carry its seal (see thinking-signature.ts). */
function sealToolUses(content: ContentBlock[], generated: ReadonlySet<string>): void {
  const thinking = content.filter(isThinkingBlock);
  if (thinking.length === 0) return;
  for (const [i, block] of content.entries()) {
    if (block.type === 'tool_use' && generated.has(block.id))
      content[i] = { ...block, id: markToolUseId(block.id, thinking) };
  }
}

function thinkingBlock(
  block: Extract<ScriptBlock, { type: 'thinking' | 'redacted_thinking' }>,
  captures: Captures,
): ContentBlock {
  if (block.type === 'redacted_thinking')
    return { type: 'redacted_thinking', data: block.data ?? sealRedacted() };
  const thinking = substitute(block.thinking, captures);
  return { type: 'thinking', thinking, signature: block.signature ?? signThinking(thinking) };
}

export const newToolUseId = (): string => `toolu_${randomBytes(12).toString('hex')}`;

const agentName = (agent: string | undefined): string =>
  agent === undefined ? 'an unnamed agent' : `agent "${agent}"`;
const excerpt = (text: string): string => JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text);

function unmatchedError(source: string, facts: CallFacts): ModelError {
  const message =
    `${source}: no script step or rule answers this call from ${agentName(facts.agent)} ` +
    `(turn ${facts.turn}); latest user text: ${excerpt(facts.latestUserText)}`;
  return modelError('invalid_request', message);
}
