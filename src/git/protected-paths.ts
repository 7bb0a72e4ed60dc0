/**
 * Files that steer the agents themselves: a branch that changes one of them
 * must not be merged on an agent's word. `.claude/` (settings and their
 * hooks, agent files, skills, commands), `.mcp.json`, `CLAUDE.md`,
 * `CLAUDE.local.md` and `AGENTS.md` (read into every model's context, at any
 * depth), `.team/` (teamd's config and state), and git hook folders
 * (`.githooks/`, `.husky/`, `.git/`, and the repository's `core.hooksPath`).
 *
 * Names are compared the way a lenient file system would resolve them, so a
 * look-alike cannot slip through: case folded, `./` and empty segments
 * dropped, zero-width and bidirectional marks removed, trailing dots and
 * spaces cut (Windows drops them), Unicode compatibility forms folded
 * (NFKC), dotless ı and long ſ read as i and s. What a branch changes is
 * checked in protected-changes.ts.
 */

const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0]/g;

/** One path segment as a lenient file system would see it. */
export function foldSegment(segment: string): string {
  const folded = segment
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .toLowerCase()
    .replace(/\u0131/g, 'i')
    .replace(/\u017f/g, 's')
    .replace(/[. ]+$/, '');
  return folded === '' && /^\.+$/.test(segment) ? segment : folded;
}

/** The path's segments, folded, with `.`, `..`-free and empty parts dropped (backslashes are separators too). */
export function foldPath(path: string): string[] {
  return path
    .split(/[\\/]+/)
    .map(foldSegment)
    .filter((s) => s !== '' && s !== '.');
}

const ANYWHERE_FILES = new Map([
  ['claude.md', 'CLAUDE.md is read into the agents\' context'],
  ['claude.local.md', 'CLAUDE.local.md is read into the agents\' context'],
  ['agents.md', 'AGENTS.md is read into the agents\' context'],
]);
const ANYWHERE_FOLDERS = new Map([
  ['.claude', '.claude/ holds settings, hooks, agent files and skills'],
  ['.git', 'files under .git/ are git itself (hooks, config)'],
]);
const ROOT_ENTRIES = new Map([
  ['.mcp.json', '.mcp.json starts MCP servers'],
  ['.team', '.team/ is teamd\'s config and state'],
  ['.githooks', '.githooks/ holds git hooks'],
  ['.husky', '.husky/ holds git hooks'],
]);

/**
 * Why a change of `path` needs a person, or undefined. `hooksPath` is the
 * repository's `core.hooksPath`, relative to its root, when it sets one.
 */
export function protectedReason(path: string, hooksPath?: string): string | undefined {
  const parts = foldPath(path);
  if (parts.length === 0) return undefined;
  const root = ROOT_ENTRIES.get(parts[0]!);
  if (root !== undefined) return root;
  const file = ANYWHERE_FILES.get(parts.at(-1)!);
  if (file !== undefined) return file;
  const folder = parts.slice(0, -1).find((p) => ANYWHERE_FOLDERS.has(p));
  if (folder !== undefined) return ANYWHERE_FOLDERS.get(folder);
  if (ANYWHERE_FOLDERS.has(parts.at(-1)!)) return ANYWHERE_FOLDERS.get(parts.at(-1)!);
  const hooks = hooksPath === undefined ? [] : foldPath(hooksPath);
  if (hooks.length > 0 && hooks.every((h, i) => parts[i] === h)) return `${hooksPath} is the repository's core.hooksPath`;
  return undefined;
}
