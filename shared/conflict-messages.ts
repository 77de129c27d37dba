/** The conflict dialog, shown when a save meets a newer version of the task. */
export const CONFLICT_MESSAGES = {
  title: 'This task changed while you were working on it',
  changedBy: (who: string) => `${who} saved a change to this task before you did.`,
  changedBySomeone: 'Someone else saved a change to this task before you did.',
  deleteNote: 'You tried to delete it.',
  applyMine: 'Apply mine on top',
  keepTheirs: 'Keep theirs',
} as const;
