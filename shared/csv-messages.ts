import { LIMITS } from './constants.ts';
import { CSV_COLUMNS } from './schemas/integrations.ts';
import { message, text } from './i18n.ts';

/** Answers of a board's CSV import (`POST /api/boards/:id/import.csv`), shown as-is by the web app. */
export const CSV_MESSAGES = {
  imported: (tasks: number) => message('{tasks, plural, one {# task was imported.} other {# tasks were imported.}}', { tasks }),
  /** `detail`: the CSV reader's own words on what is wrong (English). */
  notCsv: (detail: string) => message('The file is not valid CSV. {detail}', { detail }),
  empty: text('The file has no header row.'),
  noRows: text('The file has a header row but no tasks.'),
  unknownColumn: (name: string) => message('Unknown column "{name}": the columns are {columns}.', { name, columns: CSV_COLUMNS.join(', ') }),
  repeatedColumn: (name: string) => message('The column "{name}" appears more than once.', { name }),
  missingColumn: (name: string) => message('The column "{name}" is required.', { name }),
  wrongCount: (expected: number, found: number) => message('This row has {found, plural, other {# fields}}; the header has {expected}.', { found, expected }),
  priority: text('Priority must be one of normal, low, high, urgent (or empty for normal).'),
  status: text('Status must be todo or done (or empty for todo).'),
  tooManyLabelsOnTask: message('A task can have at most {max} labels.', { max: LIMITS.labelsPerTask }),
  tooManyLabelsOnBoard: message('A board can have at most {max} labels: this import would need more.', { max: LIMITS.labelsPerBoard }),
  moreErrors: (count: number) => message('{count, plural, one {# more error not listed.} other {# more errors not listed.}}', { count }),
  notCsvType: text('Send the file as text/csv.'),
  tooManyColumns: (max: number) => message('A board can have at most {max} columns: this row names one more.', { max }),
} as const;
