/**
 * Contracts of the strict read-only checker. It understands a small subset
 * of bash (simple commands, pipes, `&&`, `||`, `;`, quotes, `$NAME`,
 * `${NAME}`, `$(…)`, globs, a few harmless redirections) and answers "not
 * read-only" for anything else, so whatever it cannot read is never allowed
 * without asking.
 */

/** One shell word after quote removal, with what the shell may still do to it. */
export interface Word {
  /** The value with quotes removed; an expansion's unknown value reads as U+0000. */
  text: string;
  /** Some part is only known when the command runs ($NAME, $(…), a glob, `~`). */
  dynamic: boolean;
  /** The shell may make several words of it (an unquoted expansion, a glob). */
  splits: boolean;
  /**
   * Whatever the shell makes of it, every resulting word starts with a known,
   * non-dash literal (`src/*.ts`, `"a/$X"`): it can never be read as an option.
   */
  anchored: boolean;
}

/** `NAME=value` before a command, or on its own. */
export interface Assignment {
  name: string;
  value: Word;
}

/** One simple command; nested `$(…)` commands are listed as commands of their own. */
export interface StrictCommand {
  assignments: Assignment[];
  words: Word[];
}

export type StrictRead = { ok: true; commands: StrictCommand[] } | { ok: false; reason: string };

/** The verdict on one command: read-only, or why not. */
export type Verdict = { ok: true } | { ok: false; reason: string };

/** How one command's arguments are checked. `pure`: no option or operand of it can write or run code. */
export interface CommandRule {
  pure: boolean;
  check: (args: Word[]) => Verdict;
}
