/**
 * What every git command teamd runs carries, so that no configuration a
 * repository (or a teammate writing in it) controls makes teamd's own git run
 * a command. `-c` settings on the command line win over every config file,
 * and reach the git processes git starts itself (submodules) through
 * `GIT_CONFIG_PARAMETERS`. Drivers that have a name of their own
 * (`filter.<x>.clean`, `merge.<x>.driver`) cannot be switched off here: see
 * repo-drivers.ts. The threat model is in docs/WORKTREES.md ("What teamd's git
 * never runs").
 */

/** Set in teamd's own environment to let the repository's hooks run in teamd's git calls. */
export const TRUST_HOOKS_ENV = 'TEAMD_TRUST_GIT_HOOKS';

const SAFE_SETTINGS = [
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.pager=cat',
  'core.editor=true',
  'core.askPass=',
  'core.sshCommand=false',
  'core.gitProxy=',
  'core.alternateRefsCommand=',
  'sequence.editor=true',
  'credential.helper=',
  'protocol.ext.allow=never',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'log.showSignature=false',
  'merge.verifySignatures=false',
  'gpg.program=false',
  'gpg.ssh.program=false',
  'gpg.x509.program=false',
  'gc.auto=0',
  'maintenance.auto=false',
];

/** True when teamd was started with `TEAMD_TRUST_GIT_HOOKS=1`. */
export function hooksTrusted(): boolean {
  return process.env[TRUST_HOOKS_ENV] === '1';
}

/** The `-c key=value` arguments that go before every git subcommand. */
export function safeConfigArgs(): string[] {
  const settings = hooksTrusted() ? SAFE_SETTINGS : [...SAFE_SETTINGS, 'core.hooksPath=/dev/null'];
  return settings.flatMap((s) => ['-c', s]);
}

/** Flags for `git diff` and friends: no external diff program, no textconv filter. */
export const SAFE_DIFF_FLAGS = ['--no-ext-diff', '--no-textconv'];

/**
 * Subcommands that may run `diff.external` or a textconv driver. An empty
 * `-c diff.external=` does not switch it off (git then tries to run ""), so
 * these always get SAFE_DIFF_FLAGS right after the subcommand.
 */
const DIFFING = new Set(['diff', 'log', 'show']);

/** `args` with SAFE_DIFF_FLAGS after a diffing subcommand (once); leading `--git-dir=…` options are skipped. */
export function withSafeDiffFlags(args: readonly string[]): string[] {
  const at = args.findIndex((a) => !a.startsWith('-'));
  const sub = args[at];
  if (sub === undefined || !DIFFING.has(sub) || args.includes('--no-ext-diff')) return [...args];
  return [...args.slice(0, at + 1), ...SAFE_DIFF_FLAGS, ...args.slice(at + 1)];
}

/**
 * teamd's environment without any `GIT_*` variable it inherited (a hook's
 * GIT_DIR, a user's GIT_EXTERNAL_DIFF or GIT_SSH_COMMAND), plus the settings
 * that keep git from prompting or taking locks it does not need.
 */
export function safeGitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_EDITOR: 'true',
    GIT_PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
    ...extra,
  };
}
