/**
 * The view model: every message a person sees, composed once as a few neutral blocks and rendered
 * by each platform under its own limits and escaping (adapters/<platform>/renderer.ts). A view
 * holds values as they are (untrusted program text, the team's text, our words): nothing here is
 * escaped, cut or marked up. A renderer escapes and cuts once, after its last transformation, and
 * what is compared or stored is never a renderer's output.
 */

/**
 * A piece of inline text. A plain string is shown as written (every platform escapes it); the
 * others carry one emphasis each. Inline text never holds markup of a platform.
 */
export type Inline =
  | string
  | { strong: string }
  | { emphasis: string }
  /** Inline code: ids, commands, a value (backticks inside it are the renderer's to neutralise). */
  | { code: string }
  /** Text struck through where the markup can (a withdrawn notice), else plain. */
  | { struck: string }
  /** A link: `label` shown, `url` an https URL the renderer may drop where links are not allowed. */
  | { link: string; url: string }
  /**
   * A moment (ISO 8601): Slack and Discord show it in the reader's time zone (Discord as a relative
   * time, as `/history` does), Matrix as `YYYY-MM-DD HH:MM UTC`.
   */
  | { time: string }
  /**
   * A person: `person` is the name shown; `id` their id on the platform. Discord shows a mention of
   * the id (which never notifies: every message is sent with no allowed mention), Slack and Matrix
   * the name in bold (a Slack mention would notify).
   */
  | { person: string; id?: string };

/** A line or paragraph of inline pieces. */
export type Line = Inline[];

/** A button (Slack, Discord) or reaction key (Matrix) of a choice on a run. */
export interface Action {
  /** The choice id (src/chat/settle-view.ts: `settle:2`, `approve:up`, …) or the action's own id. */
  id: string;
  /** The run the action acts on. */
  runId: string;
  /** What the button says (our words, or a candidate's value: untrusted, the renderer cuts it). */
  label: string;
  /** `primary`: the suggested choice; `danger`: the one that discards. Default: neither. */
  style?: 'primary' | 'danger';
}

/** A file a message carries: bytes in memory or a host path the renderer's transport uploads. */
export interface ViewFile {
  name: string;
  /** The bytes, or (a string) the host path of the file. */
  data: Buffer | string;
  /**
   * Its size in bytes when known (a host path's): a platform with upload limits (Discord) batches
   * files by it. Default: the length of `data` when it is bytes, else 0.
   */
  bytes?: number;
}

/** One block of a view. */
export type Block =
  /** A message's title line (one line; the renderer bounds it). */
  | { kind: 'heading'; text: Line }
  /** Paragraphs of our words with the team's text inline (lines separated by `'\n'` pieces). */
  | { kind: 'text'; text: Line }
  /**
   * Code, shown inert in a code block; `label` above it. Cut code goes whole into a file named
   * `file` (default `code.txt`). `tail`: code still being written, shown by its last lines that fit
   * (the renderer says how many earlier lines it left out), never as a file.
   */
  | { kind: 'code'; code: string; language?: string; label?: Line; file?: string; tail?: boolean }
  /**
   * Untrusted program output (stdout, stderr, a check's report), inert in a code block, at most
   * `maxLines` lines (default 40); when the renderer cuts it, the whole text goes into a file
   * named `file` (default `<stream>.txt`): `whole` when `text` is itself a cut copy (the bytes or
   * the host path of the whole text, e.g. the file the agent kept of a long stdout).
   */
  | { kind: 'output'; text: string; stream: 'stdout' | 'stderr' | 'checks'; label?: Line; maxLines?: number; file?: string; whole?: Buffer | string }
  /** Label–value pairs (a run's id, status, attempts…). */
  | { kind: 'fields'; fields: { label: string; value: Line }[] }
  /** Choices on a run, one row per block (a platform without buttons shows them as reaction keys). */
  | { kind: 'actions'; actions: Action[] }
  /** Files the message carries (plots, artifacts, the whole text of a cut output). */
  | { kind: 'files'; files: ViewFile[] };

/** Every kind of block, for exhaustive switches and property tests. */
export const BLOCK_KINDS = ['heading', 'text', 'code', 'output', 'fields', 'actions', 'files'] as const;

/** A message as composed: blocks in order. */
export interface View {
  blocks: Block[];
}

/** Renders views as a platform's messages. Pure: no network, never throws on any content. */
export interface ViewRenderer<M> {
  /**
   * The view as one message, or several when it does not fit in one (each within the platform's
   * limits, each well-formed on its own: no fence or markup left open).
   */
  render(view: View): M[];
}

/** The raw text of one inline piece (no markup). */
export function pieceText(piece: Inline): string {
  if (typeof piece === 'string') return piece;
  if ('strong' in piece) return piece.strong;
  if ('emphasis' in piece) return piece.emphasis;
  if ('code' in piece) return piece.code;
  if ('struck' in piece) return piece.struck;
  if ('link' in piece) return piece.link;
  if ('person' in piece) return piece.person;
  return piece.time;
}

/** The plain text of a line (no markup): for summaries, notifications and tests. */
export function plainText(line: Line): string {
  return line.map(pieceText).join('');
}
