import { Type, type Static } from 'typebox';

/** A person's secret calendar URL (`GET /api/users/me/calendar`, `POST …/rotate`). */
export const CalendarFeedEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ url: Type.String({ description: 'The secret feed URL: anyone who has it reads the calendar.' }) }),
});
export type CalendarFeedEnvelope = Static<typeof CalendarFeedEnvelope>;

/** What a CSV import wrote (`POST /api/boards/:id/import.csv`). */
export const CsvImportEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ counts: Type.Object({ tasks: Type.Integer(), labels: Type.Integer({ description: 'Labels the import created (existing ones are reused by name).' }) }) }),
});
export type CsvImportEnvelope = Static<typeof CsvImportEnvelope>;

/**
 * The columns of a board's CSV export and import, in the export's order: the eight a task always
 * had, then those added with workflow columns and start dates, so a reader of the older header
 * finds its columns where they were.
 */
export const CSV_COLUMNS = ['taskTitle', 'workTitle', 'assignee', 'deadline', 'priority', 'status', 'description', 'labels', 'column', 'startAt'] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
