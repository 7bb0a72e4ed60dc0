/**
 * Claude Code's permission rule syntax: `Tool` or `Tool(content)`, where the
 * content is a command (`Bash(git status)`), a command prefix
 * (`Bash(npm test:*)`), a path glob (`Edit(src/**)`) or a domain
 * (`WebFetch(domain:example.com)`).
 */
import type { Outcome } from '../../store/types.js';
import type { PermissionRule } from './types.js';

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]*(\*)?$/;

export function parseRule(rule: string): Outcome<PermissionRule> {
  const text = rule.trim();
  const fail = (why: string): Outcome<PermissionRule> => ({
    ok: false,
    error: `invalid permission rule ${JSON.stringify(rule)}: ${why}`,
  });
  if (text === '') return fail('it is empty');
  const open = text.indexOf('(');
  if (open === -1) {
    if (text.includes(')')) return fail('it has a ")" without a "("');
    return TOOL_NAME.test(text)
      ? { ok: true, value: { tool: text, content: null, source: text } }
      : fail('a tool name has only letters, digits, "_" and "-"');
  }
  const tool = text.slice(0, open);
  if (!TOOL_NAME.test(tool))
    return fail(`"${tool}" is not a tool name (write e.g. Bash(npm test:*), Edit(src/**), Read)`);
  if (!text.endsWith(')')) return fail('it must end with ")" (write e.g. Bash(npm test:*))');
  const content = text.slice(open + 1, -1).trim();
  if (content === '') return fail(`the parentheses are empty: write ${tool} to mean every use of the tool`);
  if (content === ':*' || content.startsWith(':*'))
    return fail('a prefix rule needs a command before ":*", e.g. Bash(npm test:*)');
  if (content.indexOf(':*') !== -1 && !content.endsWith(':*'))
    return fail('":*" may only end the rule, e.g. Bash(npm run test:*)');
  return { ok: true, value: { tool, content, source: text } };
}

/** Every malformed rule of a list, as messages naming the list (`deny[2]: …`). */
export function ruleProblems(listName: string, rules: string[]): string[] {
  return rules.flatMap((rule, i) => {
    const parsed = parseRule(rule);
    return parsed.ok ? [] : [`${listName}[${i}]: ${parsed.error}`];
  });
}
