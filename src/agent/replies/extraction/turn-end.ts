/**
 * What of a reply is the model's answer (rules 1 and 2 of `../extract.ts`): the reply ends at the
 * first chat-template token that ends the turn, and reasoning sections are removed.
 */

// Chat-template tokens

/** Tokens that end the assistant's turn or start another one, in the chat templates in use. */
const TURN_TOKEN =
  /<\|(?:im_end|im_start|endoftext|end_of_text|eot_id|eom_id|end|user|system|assistant|start_header_id)\|>|<(?:end_of_turn|start_of_turn)>|\[\/?INST\]|<\/s>[ \t]*(?=\n|$)/;
/** A template header the server left before the reply. */
const LEADING_HEADER = /^\s*(?:<\|im_start\|>assistant|<\|start_header_id\|>assistant<\|end_header_id\|>|<\|assistant\|>|<start_of_turn>model)[ \t]*\n?/;

/** The reply up to the first token that ends the turn (see rule 1). */
export function endOfTurn(text: string): string {
  const body = text.replace(LEADING_HEADER, '');
  const end = TURN_TOKEN.exec(body);
  return end ? body.slice(0, end.index) : body;
}

// Reasoning sections

const REASONING_TAGS = 'think|thinking|reasoning';

/**
 * The reply without its reasoning sections (`<think>`, `<thinking>`, `<reasoning>`; rule 2):
 * closed ones removed, everything before an orphan closing tag, everything after an opening tag
 * at the start that never closes ('' then).
 */
export function stripReasoning(text: string): string {
  let t = text.replace(new RegExp(`<(${REASONING_TAGS})>[\\s\\S]*?</\\1>`, 'gi'), '');
  // A closing tag without an opening one: the template opened the section; drop what precedes it.
  const orphanClose = [...t.matchAll(new RegExp(`</(?:${REASONING_TAGS})>`, 'gi'))].at(-1);
  if (orphanClose?.index !== undefined) t = t.slice(orphanClose.index + orphanClose[0].length);
  // An opening tag at the start that never closes: the reply is all reasoning (or was cut off).
  const openAtStart = new RegExp(`^\\s*<(?:${REASONING_TAGS})>`, 'i').exec(t);
  if (openAtStart) t = '';
  return t;
}

