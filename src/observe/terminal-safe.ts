/**
 * Text from the repository, made safe to print on a terminal. Anyone who can
 * write the repository (a teammate's model or its bash, a dropped task file,
 * mail, cron, transcripts) chooses what `teamd` prints, so nothing of it may
 * reach the terminal as a control: an escape sequence could write the
 * clipboard (OSC 52), set the title, or move the cursor over earlier lines;
 * a bidi override could show a command other than the one approved; a bare
 * CR or newline inside a field could split or overwrite an output line.
 *
 * Every such character is shown instead as the escape a JavaScript string
 * would use: C0 controls and DEL as `\x1b`, `\x7f` (tab, newline and CR as
 * `\t`, `\n`, `\r`), C1 controls and bidi controls as `\u009b`, `\u202e`.
 * Backslashes are left alone (a Windows path or a regex stays readable), so
 * the text `\x1b` and an escaped ESC look the same: either way the reader
 * sees no control was obeyed.
 */

/**
 * What is never printed raw: C0 (U+0000–U+001F), DEL, C1 (U+0080–U+009F,
 * 8-bit CSI U+009B among them), and the bidi controls: the embeddings and
 * overrides U+202A–U+202E, the isolates U+2066–U+2069, and the marks
 * U+061C, U+200E, U+200F.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The same set without tab and newline, which multi-line text keeps. */
const UNSAFE_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** What JSON.stringify leaves raw of that set (it escapes C0 itself): DEL, C1 and bidi. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const hex = (c: string, digits: number): string => c.charCodeAt(0).toString(16).padStart(digits, '0');

/** `\x1b` for C0 and DEL, `\u009b` above them, `\n` `\r` `\t` by name. */
function visible(c: string): string {
  return NAMED[c] ?? (c <= '\x7f' ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`);
}

/** Multi-line text for the terminal: newlines and tabs kept, every other control shown as an escape. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, visible);
}

/** One line for the terminal (a table cell, a field in a record): newlines, CRs and tabs shown as escapes too. */
export function terminalSafeLine(text: string): string {
  return text.replace(UNSAFE, visible);
}

/**
 * JSON.stringify's text with DEL, C1 and bidi controls written as `\u…`
 * escapes as well: still JSON, parsing to the very same strings, and safe to
 * show on a terminal (`--json` output is read by people too).
 */
export function terminalSafeJson(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space) as string | undefined;
  return text === undefined ? 'undefined' : text.replace(UNSAFE_IN_JSON, (c) => `\\u${hex(c, 4)}`);
}
