/**
 * Files a request asks the program to write ("write monthly_totals.csv", "a flat CSV called
 * order_lines.csv", "save it as chart.png"), and whether an attempt wrote them. A run whose program
 * printed an answer but never wrote the file it was asked for did not do what was asked, whatever
 * its printed values say: it is never confirmed, and the next attempt is told which file is missing.
 * The same holds for a chart the request asks for ("plot the monthly totals as a bar chart") when the
 * program drew none (no picture among the files it wrote; matplotlib's figures are saved as PNG).
 */
import type { Attempt, Run } from '../../history/types.js';

/** A file name with an extension a program writes as a result. */
const FILE_NAME = /(?<![\w./-])([\w-]+(?:\.[\w-]+)*\.(?:csv|tsv|xlsx|xls|json|jsonl|parquet|png|jpe?g|svg|pdf|txt|html|md|zip))(?![\w-])/gi;
/** Words that make a file name that follows them (in the same sentence) something to write. */
const WRITE_WORDS = /\b(?:write|writes|writing|save|saves|saving|export|exports|create|creates|produce|produces|generate|generates|output|outputs|store|stores|dump|called|named|into)\b/i;
/** How far before a file name a word that asks to write it is looked for, in characters. */
const WINDOW = 60;

/**
 * The names of the files `request` asks to write, in the order named, without the names of the
 * run's input files (reading them is not writing them) and without repeats.
 * @param inputNames names of the files the program is given
 */
export function requestedOutputs(request: string, inputNames: readonly string[]): string[] {
  const inputs = new Set(inputNames.map((n) => n.toLowerCase()));
  const out: string[] = [];
  for (const m of request.matchAll(FILE_NAME)) {
    const name = m[1]!;
    if (inputs.has(name.toLowerCase()) || out.some((o) => o.toLowerCase() === name.toLowerCase())) continue;
    const before = request.slice(Math.max(0, m.index! - WINDOW), m.index!);
    const sentence = before.split(/[.!?](?:\s|$)|\n/).at(-1) ?? '';
    if (WRITE_WORDS.test(sentence)) out.push(name);
  }
  return out;
}

/**
 * The files the request asks for that a successful attempt did not write (compared by base name,
 * without case); [] when it wrote them all, asked for none, or did not run.
 * @param request what the user asked for so far (`requestSoFar`)
 */
export function missingOutputs(attempt: Attempt, run: Pick<Run, 'inputProfile'>, request: string): string[] {
  const result = attempt.result;
  if (!result?.success) return [];
  const wanted = requestedOutputs(request, (run.inputProfile?.files ?? []).map((f) => f.name));
  const written = new Set(result.artifacts.map((a) => a.name.split('/').at(-1)!.toLowerCase()));
  return wanted.filter((name) => !written.has(name.toLowerCase()));
}

/** Why an attempt that did not write the requested files is not the answer (one line). */
export function missingOutputsReason(missing: readonly string[]): string {
  const list = missing.join(', ');
  return `the request asks for ${list}, and the program wrote no ${missing.length === 1 ? 'such file' : 'such files'}`;
}

/** What the next attempt is told about the files its program did not write. */
export function missingOutputsFeedback(missing: readonly string[]): string {
  const first = missing[0]!;
  const how = /\.(csv|tsv)$/i.test(first) ? ` (a table: df.to_csv('${first}', index=False), after .reset_index() when the groups are its index, so that they are a column)` : /\.(png|jpe?g|svg|pdf)$/i.test(first) ? ` (a figure: plt.savefig('${first}'))` : '';
  return `The request asks for ${missing.join(', ')}, but the program wrote no such file. Write ${missing.length === 1 ? 'it' : 'each'} under exactly that name in the current folder${how}, and print what the request asks too.`;
}

/** Words that ask for a chart (not "graph", "figure" or "draw": "a graph's shortest path", "figure out", "draw 5 cards"). */
const CHART_REQUEST = /\b(?:plot(?:s|ted|ting)?|charts?|histograms?|visuali[sz]e[ds]?|visuali[sz]ation)\b/i;
/** Files that hold a chart: pictures, and the HTML plotly writes. */
const CHART_FILE = /\.(?:png|jpe?g|svg|pdf|gif|webp|html)$/i;

/** Why an attempt that drew no chart a request asks for is not the answer (one line). */
export const NO_CHART_REASON = 'the request asks for a chart, and the program drew none';
/** What the next attempt is told when its program drew no chart the request asks for. */
export const NO_CHART_FEEDBACK =
  'The request asks for a chart, but the program drew none. Draw it with matplotlib (for example plt.bar with a title ' +
  'and axis labels): the figure is saved as PNG and shown. Print the values it shows too.';

/**
 * True when `request` asks for a chart and a successful attempt wrote no file that holds one.
 * @param request what the user asked for so far (`requestSoFar`)
 */
export function missingChart(attempt: Attempt, request: string): boolean {
  const result = attempt.result;
  return !!result?.success && CHART_REQUEST.test(request) && !result.artifacts.some((a) => CHART_FILE.test(a.name));
}
