import type { Command } from 'commander';
import { registerCronCommands } from './cron.js';
import { registerInitCommand } from './init.js';
import { registerMailCommands } from './mail.js';
import { registerTaskCommands } from './task.js';
import { registerValidateCommand } from './validate.js';

/**
 * Registers the commands that only read and write files (init, task, send,
 * inbox, cron, validate). A module of its own, imported on demand by main.ts:
 * their schemas pull in zod and yaml, which `teamd --version` does not need.
 */
export function registerFileCommands(program: Command): void {
  registerInitCommand(program);
  registerTaskCommands(program);
  registerMailCommands(program);
  registerCronCommands(program);
  registerValidateCommand(program);
}
