import { PERSONAL_BOARD_NAME, type Priority } from '#shared/constants.ts';
import { text } from '#shared/i18n.ts';
import { translate, type ReaderLanguage } from './translate.ts';

/** A priority's name, in mails and the calendar feed. */
export const PRIORITY_LABEL: Readonly<Record<Priority, string>> = { urgent: text('Urgent'), high: text('High'), normal: text('Normal'), low: text('Low') };

/**
 * The names Taskwise itself gives a board and its columns, as stored (the web app keeps the same
 * list in web/src/lib/product-names.ts, in its own catalogs).
 */
const PRODUCT_NAMES: ReadonlyMap<string, string> = new Map([
  // i18n: The name of the board every account starts with
  [PERSONAL_BOARD_NAME, text('Personal')],
  // i18n: The name of a board’s first column
  ['Tasks To Do', text('Tasks To Do')],
  // i18n: The name of a board’s column of finished tasks
  ['Completed', text('Completed')],
]);

/**
 * A board or column name as its reader reads it, as the web app shows it: the product's own names
 * in the reader's language while nobody has changed them, any other name exactly as people typed
 * it (never looked up in a catalog, so braces or quotes in it mean nothing).
 */
export function displayName(language: ReaderLanguage, name: string): string {
  const own = PRODUCT_NAMES.get(name);
  return own === undefined ? name : translate(language, own);
}
