/**
 * Incoming chat text, before it reaches the agent. Chat clients on phones and Macs replace
 * straight quotes with typographic ones ("smart quotes") as people type; inside code that breaks
 * Python (`print(“hi”)` is a SyntaxError). The rule: inside code spans and code blocks
 * (`` `…` ``, ```` ```…``` ````), typographic quotes become straight ones; in prose they are kept
 * (they are the person's words, and the LLM reads them fine). README "Chat input" says so.
 */

const DOUBLE = /[\u201c\u201d\u201e\u201f\u2033]/g;
const SINGLE = /[\u2018\u2019\u201a\u201b\u2032]/g;
/** A fenced block (closed or running to the end), or an inline code span. */
const CODE = /(`{3,})[\s\S]*?(?:\1|$)|`[^`\n]+`/g;

/** Straight quotes inside code spans and blocks; the rest of the text is unchanged. */
export function straightenQuotesInCode(text: string): string {
  return text.replace(CODE, (code) => code.replace(DOUBLE, '"').replace(SINGLE, "'"));
}
