/**
 * Input fields with small JSON Schemas. The stores' schemas hold the rules
 * (an id's pattern, no `..`); listed to a client as they are, every tool
 * repeats a 40-character pattern and every integer two 16-digit bounds. Here
 * the same rules run as refinements, which JSON Schema leaves out: the client
 * sees `{"type":"string","maxLength":64}`, and a bad value is still refused
 * at the boundary with the store's own message, naming the field.
 */
import { z } from 'zod';
import { AgentNameSchema, IdSchema } from '../store/types.js';

/** Checks `value` with `schema` and reports its issues on this field. */
const sameAs =
  (schema: z.ZodType) =>
  (value: unknown, ctx: z.RefinementCtx): void => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
  };

/** A task, request or cron job id: `IdSchema`'s rules. */
export const Id = z.string().max(64).superRefine(sameAs(IdSchema));

/** An agent name: `AgentNameSchema`'s rules. */
export const AgentName = z.string().max(64).superRefine(sameAs(AgentNameSchema));

/** A whole number (JSON Schema: a number; the refinement refuses 1.5). */
export const Int = z.number().refine(Number.isSafeInteger, 'must be an integer');
