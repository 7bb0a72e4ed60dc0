/**
 * The interpreter of a shell-form command hook, by its `shell` field
 * (Claude Code's settings schema, 2.1.332): `bash` (the default) and
 * `powershell`. The schema's text says `bash` "uses your $SHELL"; the real
 * CLI 2.1.332 on Linux runs the line with `/bin/sh -c` whatever `$SHELL`
 * says (test/interop/hook-on-failure.test.ts), and so does teamd, so that
 * the same hook line behaves the same under both. `powershell` runs it with
 * `pwsh -NoProfile -Command`; without pwsh the hook could not start.
 */

export type HookShell = 'bash' | 'powershell';

export interface ShellArgv {
  file: string;
  args: string[];
}

export function shellArgv(shell: HookShell | undefined, line: string): ShellArgv {
  if (shell === 'powershell') return { file: 'pwsh', args: ['-NoProfile', '-Command', line] };
  return { file: '/bin/sh', args: ['-c', line] };
}
