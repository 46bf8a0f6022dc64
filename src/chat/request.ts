/**
 * What a chat user asks for, whatever the platform: a new run (`run`, `generate`), or a job on an
 * existing run (`reply-improve`: a reply in its thread; `improve`: the Improve button's feedback;
 * `re-run`: the Re-run button). Each platform turns its own traffic (slash commands, mentions,
 * interactions, buttons, thread messages) into one of these; admission (admission.ts) decides on it.
 * `/history` and `/show` only read the history: they are answered without a job.
 */
export type ChatRequest = { kind: 'run' | 'generate'; requirement: string } | { kind: 'reply-improve' | 'improve' | 're-run' };

/** Whether a request works on an existing run (it then waits its turn rather than being refused for its busy user). */
export function onExistingRun(request: ChatRequest): boolean {
  return request.kind !== 'run' && request.kind !== 'generate';
}
