import { LIMITS } from './constants.ts';
import { CSV_COLUMNS } from './schemas/integrations.ts';

/** Answers of a board's CSV import (`POST /api/boards/:id/import.csv`), shown as-is by the web app. */
export const CSV_MESSAGES = {
  imported: (tasks: number) => `${tasks.toLocaleString('en')} ${tasks === 1 ? 'task was' : 'tasks were'} imported.`,
  notCsv: 'The file is not valid CSV.',
  empty: 'The file has no header row.',
  noRows: 'The file has a header row but no tasks.',
  unknownColumn: (name: string) => `Unknown column "${name}": the columns are ${CSV_COLUMNS.join(', ')}.`,
  repeatedColumn: (name: string) => `The column "${name}" appears more than once.`,
  missingColumn: (name: string) => `The column "${name}" is required.`,
  wrongCount: (expected: number, found: number) => `This row has ${found} fields; the header has ${expected}.`,
  priority: 'Priority must be one of normal, low, high, urgent (or empty for normal).',
  status: 'Status must be todo or done (or empty for todo).',
  tooManyLabelsOnTask: `A task can have at most ${LIMITS.labelsPerTask} labels.`,
  tooManyLabelsOnBoard: `A board can have at most ${LIMITS.labelsPerBoard} labels: this import would need more.`,
  moreErrors: (n: number) => `${n.toLocaleString('en')} more ${n === 1 ? 'error' : 'errors'} not listed.`,
  notCsvType: 'Send the file as text/csv.',
  tooManyColumns: (max: number) => `A board can have at most ${max} columns: this row names one more.`,
} as const;
