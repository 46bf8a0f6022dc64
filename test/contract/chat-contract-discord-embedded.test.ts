/** The chat contract (chat-contract.ts) on Discord, embedded: the app runs its jobs on its in-memory queue. */
import { chatContract } from './chat-contract.js';

chatContract('Discord', 'embedded');
