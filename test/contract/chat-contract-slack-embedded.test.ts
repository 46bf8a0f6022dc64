/** The chat contract (chat-contract.ts) on Slack, embedded: the app runs its jobs on its in-memory queue. */
import { chatContract } from './chat-contract.js';

chatContract('Slack', 'embedded');
