import { render } from 'ink';
import type { TeamConfig } from '../config/schema.js';
import { createNotifier } from '../notify/notifier.js';
import type { LoggedEvent } from '../observe/types.js';
import { teamActions } from './actions.js';
import { App } from './components/App.js';
import { createTeamSource } from './source.js';
import { noColorRequested } from './theme.js';
import { keepYoungGenerationSmall } from './young-generation.js';

export interface TopOptions {
  repoRoot: string;
  config: TeamConfig;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  /** Default: the NO_COLOR environment variable. */
  noColor?: boolean;
  /** The fallback refresh interval (default 2000 ms). */
  refreshMs?: number;
  /** Draw on the alternate screen, restoring the terminal on exit (default: when stdout is a TTY). */
  altScreen?: boolean;
}

const ENTER_ALT_SCREEN = '\x1b[?1049h';
const LEAVE_ALT_SCREEN = '\x1b[?1049l';

/** Runs the dashboard until `q` (or Ctrl+C). The bell rings once per batch of new needs-you events. */
export async function runTop(options: TopOptions): Promise<void> {
  keepYoungGenerationSmall();
  const stdout = options.stdout ?? process.stdout;
  const noColor = options.noColor ?? noColorRequested();
  const source = createTeamSource(options.repoRoot, options.config, { refreshMs: options.refreshMs });
  const actions = teamActions(options.repoRoot, options.config, { color: !noColor });
  // Desktop and webhook notifications are the daemon's: top only rings its own terminal.
  const notifier = createNotifier(options.config, {
    repoRoot: options.repoRoot,
    bell: () => stdout.write('\x07'),
    desktop: false,
    webhook: null,
  });
  const onFresh = (events: LoggedEvent[]): void => {
    events.find((e) => notifier.onEvent(e) !== null);
  };
  const alt = options.altScreen ?? stdout.isTTY === true;
  if (alt) stdout.write(ENTER_ALT_SCREEN);
  try {
    const app = render(<App source={source} actions={actions} noColor={noColor} onFresh={onFresh} />, {
      stdout,
      ...(options.stdin ? { stdin: options.stdin } : {}),
      patchConsole: false,
      exitOnCtrlC: true,
    });
    await app.waitUntilExit();
  } finally {
    if (alt) stdout.write(LEAVE_ALT_SCREEN);
  }
}
