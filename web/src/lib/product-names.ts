import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { PERSONAL_BOARD_NAME } from '#shared/constants.ts';

/**
 * The names Taskwise itself gives, shown in the reader's language while nobody has changed them:
 * a board or column renamed by its people shows what they typed, in any language. The server writes
 * them the same way in mails and the calendar feed (server/i18n/names.ts, in its own catalogs).
 */
/* eslint-disable lingui/no-unlocalized-strings -- the names as stored, compared, never shown as they are */
const PRODUCT_NAMES: ReadonlyMap<string, MessageDescriptor> = new Map([
  [PERSONAL_BOARD_NAME, msg({ message: 'Personal', comment: 'The name of the board every account starts with' })],
  ['Tasks To Do', msg({ message: 'Tasks To Do', comment: 'The name of a board’s first column' })],
  ['Completed', msg({ message: 'Completed', comment: 'The name of a board’s column of finished tasks' })],
]);
/* eslint-enable lingui/no-unlocalized-strings */

/** A board or column name as the reader sees it: the product's own names translated, any other as typed. */
export function displayName(name: string): string {
  const descriptor = PRODUCT_NAMES.get(name);
  return descriptor ? i18n._(descriptor) : name;
}
