import { z } from 'zod';

type Json = Record<string, unknown>;

/**
 * A team tool's input schema as the model is sent it, in every request: the
 * named fields of the tool's zod schema, each with its type only where it is
 * not a string (a string field is `{}`), and no enums or field descriptions
 * (the tool's description says the values that matter). The tool still
 * checks its input with the full zod schema, so a wrong type or an unknown
 * value is refused with a message naming the field and what it accepts; a
 * field left out here (the lead's `owner` on a teammate's `task_write`) is
 * still accepted, only not offered.
 */
export function sentSchema(schema: z.ZodObject, fields: readonly string[]): Json {
  const full = z.toJSONSchema(schema, { io: 'input' }) as { properties: Record<string, Json> };
  const properties: Record<string, Json> = {};
  for (const name of fields) {
    const property = full.properties[name];
    if (!property) throw new Error(`sentSchema: the tool's schema has no field "${name}"`);
    properties[name] = leanProperty(property);
  }
  return { type: 'object', properties };
}

/** A field's type, and its items' type for a list of other than strings; nothing for a string (or null). */
function leanProperty(property: Json): Json {
  if ([property.type].flat().includes('string')) return {};
  const out: Json = { type: property.type };
  const items = property.items ? leanProperty(property.items as Json) : {};
  if (Object.keys(items).length) out.items = items;
  return out;
}
