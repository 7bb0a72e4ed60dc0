/**
 * The reviewer agent (`review: "agent"`): a fresh, read-only run per review
 * through the lead's model host, with the task and its diff in the prompt. It
 * answers in its final message: a first line `ACCEPT` or `REJECT: <reasons>`.
 * Anything else (or a failed run) is "undecided", and a person reviews.
 */
import { AgentRuntime } from '../agent/runtime.js';
import { loadRoles } from '../agent/subagents/roles.js';
import type { TeamConfig } from '../config/schema.js';
import type { ModelClient } from '../model/types.js';
import type { Task } from '../store/types.js';
import { transcriptsDir } from '../teammate/runtime-factory.js';
import { builtinTools } from '../tools/index.js';
import { thinkingOptionsOf } from '../model/thinking.js';

export type ReviewVerdict = { decision: 'accept' | 'reject' | 'undecided'; reasons: string };

/** Runs one review: the prompt in `cwd` (the task's worktree); resolves to the final message. `signal` interrupts it. */
export type ReviewRun = (prompt: string, cwd: string, signal: AbortSignal) => Promise<string>;

export const BUILTIN_REVIEWER_ROLE =
  'You are the code reviewer of a team. You read the change a teammate made for a task and decide whether it may merge: ' +
  'it does what the task asks, it is correct, and it does not break or remove anything else. ' +
  'You may read files in the worktree; you never edit. Answer with a first line `ACCEPT` or `REJECT: <what must change>`, ' +
  'then, optionally, short reasons.';

const READ_ONLY_TOOLS = new Set(['read', 'glob', 'grep']);

/** The verdict in the reviewer's final message. */
export function parseVerdict(text: string): ReviewVerdict {
  const trimmed = text.trim();
  const first = trimmed.split('\n', 1)[0] ?? '';
  const m = /^\W*(ACCEPT|REJECT)\b\W*(.*)$/i.exec(first);
  if (!m) return { decision: 'undecided', reasons: trimmed.slice(0, 2_000) || '(no answer)' };
  const rest = [m[2] ?? '', trimmed.slice(first.length).trim()].filter(Boolean).join('\n');
  return { decision: m[1]!.toUpperCase() === 'ACCEPT' ? 'accept' : 'reject', reasons: rest.slice(0, 4_000) };
}

export function reviewPrompt(task: Task, diff: string, round: number, rounds: number): string {
  const h = task.metadata.merge as { summary?: string; agent?: string; branch?: string } | undefined;
  return [
    `Review the change for task ${task.id} ("${task.subject}"), round ${round} of ${rounds}.`,
    task.description ? `What the task asks:\n${task.description}` : '',
    `${h?.agent ?? 'The teammate'} reports: ${h?.summary ?? '(no summary)'}`,
    `The diff of ${h?.branch ?? 'the branch'} against the integration branch:\n\n${diff}`,
    'Answer with a first line ACCEPT or REJECT: <what must change>.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** The role's prompt: `agent:<name>` from `.claude/agents/`, a prompt of its own, or the built-in one. */
export async function reviewerRole(repoRoot: string, reviewer: string | undefined): Promise<string> {
  if (!reviewer) return BUILTIN_REVIEWER_ROLE;
  if (!reviewer.startsWith('agent:')) return reviewer;
  const { roles } = await loadRoles(repoRoot);
  return roles.get(reviewer.slice('agent:'.length))?.prompt ?? BUILTIN_REVIEWER_ROLE;
}

/** A `ReviewRun` on a model client (the lead's host), read-only tools, a few turns. */
export function agentReviewRun(
  repoRoot: string,
  config: TeamConfig,
  model: () => Promise<ModelClient>,
): ReviewRun {
  return async (prompt, cwd, signal) => {
    const role = await reviewerRole(repoRoot, config.reviewer);
    const runtime = new AgentRuntime({
      model: await model(),
      cwd,
      tools: builtinTools().filter((t) => READ_ONLY_TOOLS.has(t.name)),
      systemPrompt: role,
      agentName: 'reviewer',
      maxTurns: 8,
      maxTokens: config.maxTokens,
      thinking: thinkingOptionsOf(config),
      permissionPolicy: { defaultMode: 'dontAsk', allow: ['Read', 'Glob', 'Grep'], deny: [], ask: [] },
      prices: config.prices,
      transcriptDir: transcriptsDir(repoRoot, 'reviewer'),
    });
    let final = '';
    const stop = () => runtime.interrupt();
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const e of runtime.submitMessage(prompt))
        if (e.type === 'result') final = e.subtype === 'success' ? e.result : '';
    } finally {
      signal.removeEventListener('abort', stop);
      await runtime.close();
    }
    return final;
  };
}
