/**
 * The ripgrep engine: runs `rg --json` and reads its match and context
 * records into the shared result shape, stopping rg once enough files matched.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Outcome } from '../store/types.js';
import type { FileMatches, GrepQuery } from './grep-search.js';

interface RgRecord {
  type: string;
  data?: { path?: { text?: string }; lines?: { text?: string }; line_number?: number };
}

export function searchWithRipgrep(rgPath: string, query: GrepQuery): Promise<Outcome<FileMatches[]>> {
  return new Promise((resolve) => {
    const child = spawn(rgPath, ripgrepArgs(query), {
      cwd: query.root,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: query.signal,
    });
    const byFile = new Map<string, FileMatches>();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!addRecord(byFile, line) || byFile.size <= query.maxFiles) return;
      child.kill();
    });
    child.on('error', (error) => resolve({ ok: false, error: `ripgrep failed: ${error.message}` }));
    child.on('close', (code) => {
      // rg exits 1 for "no match" and 2 for errors; a kill after enough matches is not an error.
      if (code === 2 && byFile.size === 0) resolve({ ok: false, error: stderr.trim() || 'ripgrep failed' });
      else
        resolve({
          ok: true,
          value: [...byFile.values()]
            .slice(0, query.maxFiles)
            .sort((a, b) => a.absPath.localeCompare(b.absPath)),
        });
    });
  });
}

function ripgrepArgs(query: GrepQuery): string[] {
  const args = ['--json', '--no-config', '--hidden', '--glob', '!.git', '--glob', '!node_modules'];
  if (query.caseInsensitive) args.push('-i');
  if (query.multiline) args.push('-U', '--multiline-dotall');
  if (query.before > 0) args.push('-B', String(query.before));
  if (query.after > 0) args.push('-A', String(query.after));
  if (query.glob !== undefined) args.push('--glob', query.glob);
  args.push('-e', query.pattern, '--', query.base);
  return args;
}

/** Returns true when the record started a new file. */
function addRecord(byFile: Map<string, FileMatches>, line: string): boolean {
  const record = JSON.parse(line) as RgRecord;
  if (record.type !== 'match' && record.type !== 'context') return false;
  const file = record.data?.path?.text;
  if (file === undefined || record.data?.line_number === undefined) return false;
  const isNew = !byFile.has(file);
  const entry = byFile.get(file) ?? { absPath: file, lines: [], count: 0 };
  byFile.set(file, entry);
  const texts = (record.data.lines?.text ?? '').replace(/\r?\n$/, '').split(/\r?\n/);
  texts.forEach((text, i) =>
    entry.lines.push({ number: (record.data?.line_number ?? 0) + i, text, match: record.type === 'match' }),
  );
  if (record.type === 'match') entry.count += texts.length;
  return isNew;
}
