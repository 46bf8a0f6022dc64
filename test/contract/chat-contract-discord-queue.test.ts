/** The chat contract (chat-contract.ts) on Discord, queue mode: a real redis-server, ingress and worker processes. */
import { chatContract } from './chat-contract.js';

chatContract('Discord', 'queue mode');
