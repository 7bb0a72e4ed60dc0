/**
 * What one hook's result means (Claude Code's protocol, per event), and how
 * the results of the hooks of one event combine into a single outcome.
 */
import { z } from 'zod';
import type { HookCommandResult, HookEventName, HookOutcome } from './types.js';

/** A field of the wrong type is ignored, not the whole answer: a hostile or sloppy hook cannot break a run. */
const loose = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const SpecificSchema = z.object({
  permissionDecision: loose(z.enum(['allow', 'deny', 'ask', 'defer'])),
  permissionDecisionReason: loose(z.string()),
  updatedInput: loose(z.record(z.string(), z.unknown())),
  additionalContext: loose(z.string()),
  /** PermissionRequest's answer. */
  decision: loose(
    z.object({
      behavior: z.enum(['allow', 'deny']),
      updatedInput: loose(z.record(z.string(), z.unknown())),
      message: loose(z.string()),
      interrupt: loose(z.boolean()),
    }),
  ),
});

/** The JSON a hook may print on stdout with exit 0. Unknown keys are ignored. */
const HookJsonSchema = z.object({
  continue: loose(z.boolean()),
  stopReason: loose(z.string()),
  decision: loose(z.enum(['block', 'approve'])),
  reason: loose(z.string()),
  systemMessage: loose(z.string()),
  hookSpecificOutput: loose(SpecificSchema),
});
type HookJson = z.infer<typeof HookJsonSchema>;

/** One hook's say; `HookOutcome` without the results list. */
export type Verdict = Omit<HookOutcome, 'results'>;

const PASS: Verdict = { blocked: false, continue: true };

/** Events where exit 2 blocks (or, after the fact, feeds stderr back to the model). Elsewhere stderr is only shown. */
const EXIT2_BLOCKS = new Set<HookEventName>([
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
]);
/** Events whose JSON `decision: "block"` counts. */
const DECISION_BLOCKS = new Set<HookEventName>([
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
]);
/** Events whose plain (non-JSON) stdout becomes context for the model. */
const PLAIN_STDOUT_IS_CONTEXT = new Set<HookEventName>(['UserPromptSubmit', 'SessionStart']);

export function verdictOf(event: HookEventName, result: HookCommandResult): Verdict {
  if (result.timedOut || result.exitCode === null) return PASS; // a broken hook never blocks
  if (result.exitCode === 2) return exitTwo(event, result);
  if (result.exitCode !== 0) return PASS;
  const text = result.stdout.trim();
  const json = text.startsWith('{') ? parseJson(text) : null;
  if (json === null)
    return PLAIN_STDOUT_IS_CONTEXT.has(event) && text !== '' ? { ...PASS, additionalContext: text } : PASS;
  return fromJson(event, json);
}

function exitTwo(event: HookEventName, result: HookCommandResult): Verdict {
  const reason = result.stderr.trim() || `blocked by the hook \`${result.command}\``;
  if (!EXIT2_BLOCKS.has(event)) return { ...PASS, systemMessage: reason };
  // A prompt/agent hook's "not ok" outside Stop-like events also ends the turn (judge-hook.ts).
  if (result.stopsTurn === true) return { blocked: true, continue: false, reason, stopReason: reason };
  return { blocked: true, continue: true, reason };
}

function parseJson(text: string): HookJson | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const parsed = HookJsonSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

type Decision = Verdict['permissionDecision'];

/** PreToolUse's `permissionDecision` (its deprecated `decision: approve|block` too); PermissionRequest's `decision.behavior`. */
function decisionOf(
  event: HookEventName,
  json: HookJson,
): { decision: Decision; reason?: string; input?: unknown } {
  const specific = json.hookSpecificOutput ?? {};
  if (event === 'PermissionRequest') {
    const d = specific.decision;
    return d === undefined
      ? { decision: undefined }
      : { decision: d.behavior, reason: d.message, input: d.updatedInput };
  }
  if (event !== 'PreToolUse') return { decision: undefined };
  const legacy = json.decision === 'approve' ? 'allow' : json.decision === 'block' ? 'deny' : undefined;
  const given = specific.permissionDecision === 'defer' ? undefined : specific.permissionDecision;
  return {
    decision: given ?? legacy,
    reason: specific.permissionDecisionReason ?? json.reason,
    input: specific.updatedInput,
  };
}

function fromJson(event: HookEventName, json: HookJson): Verdict {
  const { decision, reason: decisionReason, input } = decisionOf(event, json);
  const blocked = decision === 'deny' || (json.decision === 'block' && DECISION_BLOCKS.has(event));
  const reason = decisionReason ?? json.reason;
  const verdict: Verdict = { blocked, continue: json.continue ?? true };
  if (reason !== undefined) verdict.reason = reason;
  if (blocked && reason === undefined) verdict.reason = 'blocked by a hook';
  if (decision !== undefined) verdict.permissionDecision = decision;
  if (input !== undefined) verdict.updatedInput = input;
  const context = json.hookSpecificOutput?.additionalContext;
  if (context !== undefined) verdict.additionalContext = context;
  if (json.stopReason !== undefined) verdict.stopReason = json.stopReason;
  if (json.systemMessage !== undefined) verdict.systemMessage = json.systemMessage;
  return verdict;
}

const DECISION_RANK = { deny: 3, ask: 2, allow: 1 } as const;

const strongest = (a: Decision, b: Decision): Decision =>
  b !== undefined && (a === undefined || DECISION_RANK[b] > DECISION_RANK[a]) ? b : a;

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
  const decision = verdicts.map((v) => v.permissionDecision).reduce(strongest, undefined);
  if (decision !== undefined) outcome.permissionDecision = decision;
  const updated = verdicts.filter((v) => v.updatedInput !== undefined).at(-1);
  if (updated !== undefined) outcome.updatedInput = updated.updatedInput;
  const joined = (key: 'additionalContext' | 'systemMessage', sep: string) => {
    const parts = verdicts.flatMap((v) => v[key] ?? []);
    if (parts.length > 0) outcome[key] = parts.join(sep);
  };
  joined('additionalContext', '\n\n');
  joined('systemMessage', '\n');
  const stopReason = verdicts.find((v) => v.stopReason !== undefined)?.stopReason;
  if (stopReason !== undefined) outcome.stopReason = stopReason;
  return outcome;
}
