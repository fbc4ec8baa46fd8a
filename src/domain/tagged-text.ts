// Text of others (a server's instructions, an app's report to the model) put inside a tagged block of the model's
// input, made unable to leave it or to pose as another part of that input.

/**
 * Text made unable to leave its block: every opening angle bracket escaped (so no spelling of the closing tag, "< /…"
 * or a full-width "＜/…＞", can end it), headings escaped (they cannot read as sections of the prompt).
 */
export function contained(text: string): string {
  return text.replace(/[<\uFF1C\uFE64]/g, '&lt;').replace(/^([ \t]*)(#+)/gm, '$1\\$2');
}

/** A value inside a double-quoted attribute. */
export function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\n/g, ' ');
}
