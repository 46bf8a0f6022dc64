/**
 * The registry of dump record kinds (see `kinds.ts`): export writes them in this order, import
 * accepts exactly these. Extension point: a new kind of record adds its kind here, one line.
 */
import type { RecordKind } from './kinds.js';
import { RUN_KIND, THREAD_KIND, WORKSPACE_KIND } from './run-kinds.js';
import { MEMORY_KIND, PROGRAM_KIND, USAGE_KIND } from './channel-kinds.js';
import { SCHEDULE_KIND } from './schedule-kind.js';

/**
 * Every kind, in the order export writes them (runs first: the kinds after them export what
 * belongs to the runs exported; schedules after the programs they run).
 */
export const RECORD_KINDS: readonly RecordKind[] = [RUN_KIND, THREAD_KIND, WORKSPACE_KIND, MEMORY_KIND, USAGE_KIND, PROGRAM_KIND, SCHEDULE_KIND];

