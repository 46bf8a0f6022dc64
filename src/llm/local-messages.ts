/**
 * Turns our OpenAI-style chat into node-llama-cpp's chat history, ready to be completed
 * (it ends with an empty model turn that the model fills in).
 */
import type { ChatHistoryItem } from 'node-llama-cpp';
import type { ChatMessage } from './types.js';

/**
 * Maps `system`/`user`/`assistant` messages to node-llama-cpp history items and appends the empty
 * model response to be generated. Consecutive messages of the same role are joined with a blank line
 * (chat templates expect alternating turns).
 */
export function toChatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  for (const message of messages) {
    const last = history.at(-1);
    if (message.role === 'assistant') {
      if (last?.type === 'model') last.response.push(`\n\n${message.content}`);
      else history.push({ type: 'model', response: [message.content] });
    } else if (message.role === 'system') {
      if (last?.type === 'system' && typeof last.text === 'string') last.text += `\n\n${message.content}`;
      else history.push({ type: 'system', text: message.content });
    } else if (last?.type === 'user') {
      last.text += `\n\n${message.content}`;
    } else {
      history.push({ type: 'user', text: message.content });
    }
  }
  history.push({ type: 'model', response: [] });
  return history;
}
