/**
 * Redirections in the strict reader. Accepted: reading (`<`, `<<<`, a
 * here-document), output to `/dev/null`, and `2>&1` / `>&2` between the
 * standard descriptors. Refused: every other write (`>`, `>>`, `>|`, `&>`,
 * `<>`), other descriptors (3 reports the shell's directory), `<&`, `>&file`,
 * and reading from `/dev/tcp/…`, `/dev/udp/…` or a name known only at run time.
 */
import { Refusal, readWord, type Cursor } from './reader.js';

const REDIRECT = /^(\d*)(&>>|&>|>>|>&|>\||>|<<<|<<-|<<|<&|<>|<)/;
const STANDARD_FD = new Set(['', '0', '1', '2']);

/** Reads a redirection at the cursor, or returns false when there is none. */
export function readRedirect(c: Cursor): boolean {
  const match = REDIRECT.exec(c.src.slice(c.i, c.i + 40));
  if (match === null) return false;
  const [all, fd = '', op = ''] = match;
  if (!STANDARD_FD.has(fd)) throw new Refusal(`a redirection of descriptor ${fd}`);
  if (fd !== '' && op.startsWith('&')) throw new Refusal(`a redirection ${all} that bash reads differently`);
  c.i += all.length;
  skipBlanks(c);
  if (c.src[c.i] === '(') throw new Refusal('a process substitution');
  const { word, prefix } = readWord(c);
  checkTarget(c, op, word.dynamic ? null : word.text, prefix);
  return true;
}

function checkTarget(c: Cursor, op: string, target: string | null, raw: string): void {
  if (op === '<<<') return;
  if (op === '<') return checkReadTarget(target);
  if (op === '<<' || op === '<<-') {
    if (target === null || target === '') throw new Refusal('a here-document delimiter that is not plain');
    c.heredocs.push({ delimiter: target, stripTabs: op === '<<-', quoted: raw !== target });
    return;
  }
  if (op === '>&' && (target === '1' || target === '2')) return;
  if (['>', '>>', '&>', '&>>'].includes(op) && target === '/dev/null') return;
  throw new Refusal(`a redirection ${op} ${target ?? '(an expansion)'}, which may write a file`);
}

/** bash opens `/dev/tcp/HOST/PORT` and `/dev/udp/…` as sockets: a name built at run time could be one. */
function checkReadTarget(target: string | null): void {
  if (target === null)
    throw new Refusal('reading from a file whose name is not known (it could be /dev/tcp/…)');
  if (/^\/dev\/(tcp|udp)\//.test(target)) throw new Refusal(`${target} opens a network connection`);
}

function skipBlanks(c: Cursor): void {
  while (c.src[c.i] === ' ' || c.src[c.i] === '\t') c.i++;
}
