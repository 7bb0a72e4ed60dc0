/**
 * Differences between Claude Code and `teamd agent -p` that stay, each with
 * the reason (the same list as the table in docs/AGENT.md). A key is a
 * difference line from compare.ts, or a prefix ending in `*`.
 */
import type { Exception } from './compare.js';

export const HOOK_EXCEPTIONS: readonly Exception[] = [];

export const EVENT_EXCEPTIONS: readonly Exception[] = [];
