import { spawn } from 'node:child_process';

/**
 * Shows a desktop notification with `notify-send` (libnotify). Spawned
 * detached and not waited for: a slow or hung notification daemon never holds
 * the team up. A missing program (ENOENT) is the common case on servers and is
 * ignored; any other failure goes to `onError`.
 */
export function sendDesktopNotification(
  title: string,
  text: string,
  options: {
    command?: string;
    urgency?: 'low' | 'normal' | 'critical';
    onError?: (message: string) => void;
  } = {},
): void {
  const command = options.command ?? 'notify-send';
  let child;
  try {
    child = spawn(command, ['--app-name=teamd', `--urgency=${options.urgency ?? 'normal'}`, title, text], {
      stdio: 'ignore',
      detached: true,
    });
  } catch (err) {
    options.onError?.(`desktop notification: ${(err as Error).message}`);
    return;
  }
  child.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') options.onError?.(`desktop notification: ${err.message}`);
  });
  child.unref();
}
