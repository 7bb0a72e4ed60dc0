/** Runs a CLI action in this process and returns what it printed on stdout (and the CliError message, if it failed). */
import { CliError } from '../../../src/cli/cli-error.js';

export async function captureStdout(
  action: () => Promise<void> | void,
): Promise<{ stdout: string; error: string | null }> {
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const capture = (chunk: string | Uint8Array): boolean => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  process.stdout.write = capture;
  try {
    await action();
    return { stdout: chunks.join(''), error: null };
  } catch (err) {
    if (err instanceof CliError) return { stdout: chunks.join(''), error: err.message };
    throw err;
  } finally {
    process.stdout.write = write;
  }
}
