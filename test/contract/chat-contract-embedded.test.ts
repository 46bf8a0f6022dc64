/** The chat contract (chat-contract.ts) on every platform, embedded: the app runs its jobs on its in-memory queue. */
import { chatContract } from './chat-contract.js';

chatContract('embedded');
