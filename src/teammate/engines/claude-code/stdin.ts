/**
 * What teamd writes on the CLI's stdin: one `user` message per line. The text
 * may hold anything (newlines, quotes, U+2028, lone surrogates, NUL): JSON
 * escapes it, and the two characters some line readers take for line breaks
 * (U+2028, U+2029) are escaped too, so one message is always one line.
 */
export function userMessageLine(text: string): string {
  const line = JSON.stringify({
    type: 'user',
    message: { role: 'user', content: text },
    parent_tool_use_id: null,
    session_id: '',
  });
  return `${line.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')}\n`;
}
