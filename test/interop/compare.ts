/**
 * Field-by-field comparison of what Claude Code and `teamd agent -p` produced
 * for the same repository and conversation: the hook payloads (per event, in
 * order) and the stream-json events (per event, in order). Each difference is
 * one line with a stable key (`hook PreToolUse.permission_mode: missing in
 * teamd`), so the test can hold documented exceptions by key.
 */
import { isDeepStrictEqual } from 'node:util';

type Json = Record<string, unknown>;

/** Hook fields whose values must agree (the rest: present on both sides, values free). */
const HOOK_VALUES = [
  'hook_event_name',
  'tool_name',
  'tool_input',
  'cwd',
  'permission_mode',
  'prompt',
  'source',
  'stop_hook_active',
  'reason',
];

const keysOf = (o: unknown): string[] => (o && typeof o === 'object' ? Object.keys(o) : []);

function fieldSets(where: string, cc: unknown, td: unknown): string[] {
  const a = new Set(keysOf(cc));
  const b = new Set(keysOf(td));
  return [
    ...[...a].filter((k) => !b.has(k)).map((k) => `${where}.${k}: missing in teamd`),
    ...[...b].filter((k) => !a.has(k)).map((k) => `${where}.${k}: only in teamd`),
  ];
}

function values(where: string, cc: Json, td: Json, fields: string[]): string[] {
  return fields
    .filter((f) => f in cc && f in td && !isDeepStrictEqual(cc[f], td[f]))
    .map((f) => `${where}.${f}: differs (claude ${JSON.stringify(cc[f])}, teamd ${JSON.stringify(td[f])})`);
}

const hookName = (p: Json): string =>
  `${String(p.hook_event_name)}${typeof p.tool_name === 'string' ? `(${p.tool_name})` : ''}`;

/** Pairs the payloads by event (and tool), in order; compares field sets, then the values that must agree. */
export function compareHooks(cc: Json[], td: Json[]): string[] {
  const out: string[] = [];
  const left = [...td];
  for (const payload of cc) {
    const name = hookName(payload);
    const at = left.findIndex((p) => hookName(p) === name);
    if (at < 0) {
      out.push(`hook ${name}: not received in teamd`);
      continue;
    }
    const [mine] = left.splice(at, 1) as [Json];
    out.push(
      ...fieldSets(`hook ${name}`, payload, mine),
      ...values(`hook ${name}`, payload, mine, HOOK_VALUES),
    );
    if (payload.tool_response !== undefined)
      out.push(...fieldSets(`hook ${name}.tool_response`, payload.tool_response, mine.tool_response));
  }
  out.push(...left.map((p) => `hook ${hookName(p)}: only in teamd`));
  return out;
}

const eventName = (e: Json): string => [e.type, e.subtype].filter((x) => typeof x === 'string').join('/');

/** What must agree per event type, beyond the field sets. */
function eventValues(name: string, cc: Json, td: Json): string[] {
  const where = `event ${name}`;
  if (name.startsWith('result'))
    return values(where, cc, td, ['subtype', 'is_error', 'stop_reason', 'num_turns', 'result']);
  if (name === 'assistant' || name === 'user') {
    const shape = (e: Json) =>
      ((e.message as Json | undefined)?.content as Json[] | undefined)?.map(
        (b) => `${String(b.type)}${typeof b.name === 'string' ? `:${b.name}` : ''}`,
      );
    // an assistant line is one block of the API message, its stop reason still null
    const stop = (e: Json) => (e.message as Json | undefined)?.stop_reason;
    return values(
      where,
      { content: shape(cc), stop_reason: stop(cc) },
      { content: shape(td), stop_reason: stop(td) },
      ['content', 'stop_reason'],
    );
  }
  if (name === 'system/init') return values(where, cc, td, ['cwd', 'permissionMode', 'apiKeySource']);
  return [];
}

const NESTED: Record<string, string[]> = {
  assistant: ['message', 'message.usage'],
  user: ['message', 'tool_use_result'],
  result: ['usage'],
};

const at = (o: Json, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Json)[k] : undefined), o);

/** Pairs the events by type/subtype in order; compares the sequence, the field sets (and nested ones), and the values. */
export function compareStreams(cc: Json[], td: Json[]): string[] {
  const out: string[] = [];
  const left = [...td];
  for (const event of cc) {
    const name = eventName(event);
    const i = left.findIndex((e) => eventName(e) === name);
    if (i < 0) {
      out.push(`event ${name}: not printed by teamd`);
      continue;
    }
    const [mine] = left.splice(i, 1) as [Json];
    out.push(...fieldSets(`event ${name}`, event, mine));
    for (const path of NESTED[name] ?? [])
      out.push(...fieldSets(`event ${name}.${path}`, at(event, path), at(mine, path)));
    out.push(...eventValues(name, event, mine));
  }
  out.push(...left.map((e) => `event ${eventName(e)}: only in teamd`));
  return [...new Set(out)];
}

export interface Exception {
  /** A difference line from this file, without its `(claude …, teamd …)` values; `*` matches anything. */
  key: string;
  reason: string;
}

const globOf = (key: string): RegExp =>
  new RegExp(
    `^${key
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}( \\(|$)`,
  );

/** The differences no exception covers. */
export function unexplained(differences: string[], exceptions: readonly Exception[]): string[] {
  const globs = exceptions.map((e) => globOf(e.key));
  return differences.filter((d) => !globs.some((g) => g.test(d)));
}
