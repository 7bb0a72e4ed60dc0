/**
 * Text an attacker who can write the repository would plant for a terminal:
 * escape sequences (OSC 52 clipboard, title, CSI cursor moves and erases),
 * C1 controls (the 8-bit CSI U+009B, OSC U+009D), DEL, bidi overrides and
 * isolates, and bare CRs and newlines that split or overwrite a line, mixed
 * with ordinary words. Shared by the unit properties and the CLI and
 * dashboard tests, with the check every printed text must pass.
 */
import fc from 'fast-check';

/** Pieces that must never reach a terminal raw (a newline only where text may span lines). */
export const DANGERS = [
  '\x1b]52;c;cm0gLXJmIH4K\x07', // OSC 52: write the clipboard
  '\x1b]0;owned\x07', // OSC 0: set the window title
  '\x1b]8;;http://evil.example/\x1b\\', // OSC 8: a hyperlink
  '\x1b[2J', // erase the screen
  '\x1b[1A\x1b[2K', // up one line, erase it
  '\x1b[31m', // colour
  '\x1bc', // reset the terminal
  '\u009b2J', // 8-bit CSI
  '\u009d0;owned\u009c', // 8-bit OSC … ST
  '\u0085', // NEL
  '\x7f', // DEL
  '\x08\x08', // backspaces
  '\x00', // NUL
  '\u202e', // RIGHT-TO-LEFT OVERRIDE
  '\u202a',
  '\u2066',
  '\u2069',
  '\u200f',
  '\r', // carriage return: overwrite the line
  '\rteamd: ok', // a forged line start
] as const;

/** One dangerous piece, or a newline that hides what follows. */
export const danger = (): fc.Arbitrary<string> => fc.oneof(fc.constantFrom(...DANGERS), fc.constant('\n'));

/** A dangerous piece that is not a newline (so it stays on the first line). */
export const inlineDanger = (): fc.Arbitrary<string> => fc.constantFrom(...DANGERS);

const word = (): fc.Arbitrary<string> => fc.stringMatching(/^[a-z]{1,8}$/);

/** Any mix of words, dangerous pieces and arbitrary characters (the unit properties' input). */
export const hostileText = (): fc.Arbitrary<string> =>
  fc
    .array(fc.oneof(word(), danger(), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 12 })
    .map((parts) => parts.join(' '));

/**
 * A hostile field that can be found again in the output: `marker`, then at
 * least one dangerous piece on the same line, then more words and pieces.
 * Kept short (a task subject is at most 500 characters; tables cut at 48).
 */
export const markedHostileText = (marker: string): fc.Arbitrary<string> =>
  fc
    .tuple(inlineDanger(), fc.array(fc.oneof(word(), danger()), { maxLength: 6 }))
    .map(([first, rest]) => `${marker}${first}${rest.join(' ')}`);

/** Controls no printed text may hold: all C0 but newline and tab, DEL, C1 and bidi controls (CR included). */
export const UNSAFE_OUTPUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** The first unsafe character of `text` and where it is, for a readable failure; null when there is none. */
export function firstUnsafe(text: string): string | null {
  const at = text.search(UNSAFE_OUTPUT);
  if (at < 0) return null;
  const code = text.charCodeAt(at).toString(16).padStart(4, '0');
  return `U+${code} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`;
}
