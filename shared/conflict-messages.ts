import { message, text } from './i18n.ts';

/** The conflict dialog, shown when a save meets a newer version of the task. */
export const CONFLICT_MESSAGES = {
  title: text('This task changed while you were working on it'),
  changedBy: (who: string) => message('{who} saved a change to this task before you did.', { who }),
  changedBySomeone: text('Someone else saved a change to this task before you did.'),
  deleteNote: text('You tried to delete it.'),
  applyMine: text('Apply mine on top'),
  keepTheirs: text('Keep theirs'),
} as const;
