/**
 * Text from a database or a model, made safe to print: control characters (ESC sequences that
 * move the cursor, retitle or recolour the terminal, carriage returns that overwrite a line, NUL,
 * DEL, C1 controls) and bidirectional overrides (which make text read differently from what it
 * is) are shown as escapes (`\x1b`, `\u202e`). With `keepNewlines` a newline and a tab stay what
 * they are, for multi-line text (SQL); in table cells they are escaped too.
 */
export function escapeForTerminal(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text.replace(UNSAFE, (ch) => {
    if (options.keepNewlines && (ch === '\n' || ch === '\t')) return ch;
    if (ch === '\n') return '\\n';
    if (ch === '\t') return '\\t';
    if (ch === '\r') return '\\r';
    const code = ch.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

// C0 controls, DEL, C1 controls, bidi embeddings/overrides/isolates, line/paragraph separators.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
