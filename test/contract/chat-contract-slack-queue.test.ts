/** The chat contract (chat-contract.ts) on Slack, queue mode: a real redis-server, ingress and worker processes. */
import { chatContract } from './chat-contract.js';

chatContract('Slack', 'queue mode');
