/**
 * What the chat pipeline asks of the channels' schedules (`/schedule`, `/schedules`,
 * `/unschedule`): the port src/schedules/commands.ts implements, so the pipeline never imports
 * the schedules layer above it.
 */

/** An answer to a schedules command. */
export interface ScheduleReply {
  title: string;
  lines: string[];
  /** Nothing was done (a refusal, an unknown id, a usage mistake). */
  refused?: boolean;
}

/** How a platform spells the three commands. */
export interface ScheduleCommandNames {
  schedule: string;
  schedules: string;
  unschedule: string;
}

/** Who asks. */
export interface Asker {
  userId: string;
  userName?: string;
  /** The key they are counted under (budgets, usage). */
  key?: string;
}

/** Where a channel's schedules are: its conversation, platform and channel. */
export interface SchedulePlace {
  conversationId: string;
  platform: string;
  channel: string;
}

/** The three commands; each answers with a reply and never throws for a refusal. */
export interface ScheduleCommandsPort {
  /** `/schedule <program> [name=value …] <when> [only when …]`. */
  schedule(place: SchedulePlace, who: Asker, text: string, names: ScheduleCommandNames): Promise<ScheduleReply>;
  /** `/schedules [resume <id>]`. */
  schedules(place: SchedulePlace, text: string, names: ScheduleCommandNames): Promise<ScheduleReply>;
  /** `/unschedule <id>`. */
  unschedule(place: SchedulePlace, text: string, names: ScheduleCommandNames): Promise<ScheduleReply>;
}
