/** The chat contract (chat-contract.ts) on every platform in queue mode: ingress and worker processes on a real Redis. */
import { chatContract } from './chat-contract.js';

chatContract('queue mode');
