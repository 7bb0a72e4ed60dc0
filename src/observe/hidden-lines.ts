/**
 * What a one-line view leaves out of a multi-line value, said out loud: a
 * command approved from its first line must not hide a second one
 * (`npm test … (+1 line)`; `teamd approvals show <id>` prints them all).
 */

/** How many lines follow the first; trailing blank lines are not counted (there is nothing to see). */
export function hiddenLineCount(text: string): number {
  const after = text.split('\n').slice(1).join('\n').trimEnd();
  return after.trim() ? after.split('\n').length : 0;
}

/** ` … (+2 lines)` for a value with lines after its first, else ''. */
export function hiddenLinesMark(text: string): string {
  const n = hiddenLineCount(text);
  return n ? ` … (+${n} line${n === 1 ? '' : 's'})` : '';
}
