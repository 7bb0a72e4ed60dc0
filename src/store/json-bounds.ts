/**
 * Bounds on JSON that comes from outside a process (team files, IPC, tool and
 * API input). `JSON.parse` itself copes with any depth, but `JSON.stringify`,
 * `structuredClone` (worker messages) and recursive code after it overflow the
 * stack near depth 5,000 (`RangeError: Maximum call stack size exceeded`): a
 * 30 KB task file was enough to stop the daemon. So the depth is checked
 * before anything recurses: on the text by a scan that counts brackets outside
 * strings, on a value by an iterative walk.
 */

/** Deeper than anything teamd writes (a task is about 4 levels; metadata a few more). */
export const MAX_JSON_DEPTH = 64;

/** Why `text` nests deeper than `maxDepth`, or undefined. Never recurses; ignores brackets inside strings. */
export function textDepthProblem(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return tooDeep(maxDepth);
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

const tooDeep = (maxDepth: number): string => `nested deeper than ${maxDepth} levels`;

/** What `valueShapeProblem` checks: nesting depth and a rough size (characters of keys and strings). */
export interface JsonBounds {
  maxDepth?: number;
  maxChars?: number;
}

/**
 * Why `value` (already parsed, or built by a caller) nests deeper than
 * `maxDepth` or is larger than about `maxChars` characters, or undefined.
 * Iterative, so a value of any depth is judged without overflowing the stack.
 */
export function valueShapeProblem(value: unknown, bounds: JsonBounds = {}): string | undefined {
  const maxDepth = bounds.maxDepth ?? MAX_JSON_DEPTH;
  // A cycle is infinitely deep, so the depth bound ends it too; the size bound ends a wide shared graph.
  const maxChars = bounds.maxChars ?? 64 * 1024 * 1024;
  const stack: [unknown, number][] = [[value, 0]];
  let chars = 0;
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    chars += typeof v === 'string' ? v.length + 2 : 4;
    if (chars > maxChars) return `larger than ${maxChars} characters`;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > maxDepth) return tooDeep(maxDepth);
    for (const [k, child] of Object.entries(v)) {
      chars += k.length + 3;
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
}
