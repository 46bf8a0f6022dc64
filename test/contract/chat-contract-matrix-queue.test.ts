/** The chat contract (chat-contract.ts) on Matrix, queue mode: a real redis-server, ingress and worker processes. */
import { chatContract } from './chat-contract.js';

chatContract('Matrix', 'queue mode');
