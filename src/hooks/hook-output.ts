/**
 * What one hook's result means (Claude Code's protocol), and how the results
 * of the hooks of one event combine into a single outcome.
 */
import { z } from 'zod';
import type { HookCommandResult, HookEventName, HookOutcome } from './types.js';

/** The JSON a hook may print on stdout with exit 0. Unknown keys are ignored. */
const HookJsonSchema = z.object({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  decision: z.enum(['block', 'approve']).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .object({
      permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
});

/** One hook's say; `HookOutcome` without the results list. */
export type Verdict = Omit<HookOutcome, 'results'>;

const PASS: Verdict = { blocked: false, continue: true };

/** Events whose plain (non-JSON) stdout becomes context for the model. */
const PLAIN_STDOUT_IS_CONTEXT = new Set<HookEventName>(['UserPromptSubmit', 'SessionStart']);

export function verdictOf(event: HookEventName, result: HookCommandResult): Verdict {
  if (result.timedOut || result.exitCode === null) return PASS; // a broken hook never blocks
  if (result.exitCode === 2)
    return {
      blocked: true,
      continue: true,
      reason: result.stderr.trim() || `blocked by the hook \`${result.command}\``,
    };
  if (result.exitCode !== 0) return PASS;
  const text = result.stdout.trim();
  const json = text.startsWith('{') ? parseJson(text) : null;
  if (json === null)
    return PLAIN_STDOUT_IS_CONTEXT.has(event) && text !== '' ? { ...PASS, additionalContext: text } : PASS;
  return fromJson(json);
}

function parseJson(text: string): z.infer<typeof HookJsonSchema> | null {
  try {
    const parsed = HookJsonSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function fromJson(json: z.infer<typeof HookJsonSchema>): Verdict {
  const specific = json.hookSpecificOutput ?? {};
  const decision = specific.permissionDecision ?? (json.decision === 'approve' ? 'allow' : undefined);
  const blocked = json.decision === 'block' || decision === 'deny';
  const reason = specific.permissionDecisionReason ?? json.reason;
  const verdict: Verdict = { blocked, continue: json.continue ?? true };
  if (reason !== undefined) verdict.reason = reason;
  if (blocked && reason === undefined) verdict.reason = 'blocked by a hook';
  if (decision !== undefined) verdict.permissionDecision = decision;
  if (specific.updatedInput !== undefined) verdict.updatedInput = specific.updatedInput;
  if (specific.additionalContext !== undefined) verdict.additionalContext = specific.additionalContext;
  if (json.stopReason !== undefined) verdict.stopReason = json.stopReason;
  return verdict;
}

const DECISION_RANK = { deny: 3, ask: 2, allow: 1 } as const;

/** Any block blocks; deny beats ask beats allow; the last updatedInput wins; contexts and reasons are joined. */
export function mergeVerdicts(verdicts: Verdict[], results: HookCommandResult[]): HookOutcome {
  const outcome: HookOutcome = {
    blocked: verdicts.some((v) => v.blocked),
    continue: verdicts.every((v) => v.continue),
    results,
  };
  const reasons = verdicts
    .filter((v) => (outcome.blocked ? v.blocked : v.permissionDecision !== undefined))
    .flatMap((v) => v.reason ?? []);
  if (reasons.length > 0) outcome.reason = reasons.join('\n');
  const decision = verdicts
    .map((v) => v.permissionDecision)
    .reduce(
      (a, b) => (b !== undefined && (a === undefined || DECISION_RANK[b] > DECISION_RANK[a]) ? b : a),
      undefined,
    );
  if (decision !== undefined) outcome.permissionDecision = decision;
  const updated = verdicts.filter((v) => v.updatedInput !== undefined).at(-1);
  if (updated !== undefined) outcome.updatedInput = updated.updatedInput;
  const contexts = verdicts.flatMap((v) => v.additionalContext ?? []);
  if (contexts.length > 0) outcome.additionalContext = contexts.join('\n\n');
  const stopReason = verdicts.find((v) => v.stopReason !== undefined)?.stopReason;
  if (stopReason !== undefined) outcome.stopReason = stopReason;
  return outcome;
}
