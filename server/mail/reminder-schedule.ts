/** When reminder mail is due: task-mail.ts schedules and scans it; a repeating task's next occurrence re-arms it. */
import { HOUR, SECOND } from '../clock.ts';

export const REMINDER_POLICY = {
  /** "Due soon" goes out when the deadline is less than this far away. */
  dueSoonMs: 24 * HOUR,
  /** How often each instance looks for due reminders (a reminder goes out within 60 s). */
  scanMs: 20 * SECOND,
  /** Tasks handled per transaction of the scan. */
  batchSize: 200,
} as const;

/** When a task's first reminder ("due soon") is due: a day before its deadline. */
export const nextReminderFor = (deadline: string | null) =>
  deadline === null ? null : new Date(Date.parse(deadline) - REMINDER_POLICY.dueSoonMs).toISOString();
