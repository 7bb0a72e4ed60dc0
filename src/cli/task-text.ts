/** Long task descriptions: `--description TEXT`, `--description -` (stdin) or `--description-file F|-`. */
import { readFile } from 'node:fs/promises';
import { fail } from './cli-error.js';

export interface DescriptionOptions {
  description?: string;
  descriptionFile?: string;
}

/** The description the options give, or undefined when they give none; both at once is an error. */
export async function readDescription(options: DescriptionOptions): Promise<string | undefined> {
  const { description, descriptionFile } = options;
  if (description !== undefined && descriptionFile !== undefined)
    fail('give --description or --description-file, not both');
  if (description === '-' || descriptionFile === '-') return readStdin();
  if (descriptionFile === undefined) return description;
  try {
    return await readFile(descriptionFile, 'utf8');
  } catch (err) {
    return fail(`--description-file: cannot read ${descriptionFile}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) fail('--description -: reads the description from stdin, but stdin is a terminal');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `a, b,,c` → `['a', 'b', 'c']`; an empty string means "no ids". */
export const idList = (text: string | undefined): string[] | undefined =>
  text
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
