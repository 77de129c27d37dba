import { LIMITS } from './constants.ts';
import { message, text, type Message } from './i18n.ts';

/** Texts of the Trello import (server answers and the web app's messages). */
export const IMPORT_MESSAGES = {
  notATrelloExport: text('This is not a Trello board export: choose the JSON file of Trello\'s "Print, export and share → Export as JSON".'),
  tooLarge: message('The file is larger than {max} MB, the most one import takes.', { max: LIMITS.importMaxBytes / 1024 / 1024 }),
} as const;

export interface ImportCounts {
  tasks: number;
  labels: number;
  checklistItems: number;
  comments: number;
}

export interface ImportNotes {
  shortened: number;
  labelsDropped: number;
  taskLabelsDropped: number;
  checklistItemsDropped: number;
}

/** "Imported 12 tasks, 4 labels, 9 checklist items and 3 comments." and a sentence on what did not fit. */
export function trelloImportedMessage(counts: ImportCounts, notes: ImportNotes): Message {
  const imported = message(
    'Imported {tasks, plural, one {# task} other {# tasks}}, {labels, plural, one {# label} other {# labels}}, {checklistItems, plural, one {# checklist item} other {# checklist items}} and {comments, plural, one {# comment} other {# comments}}.',
    { tasks: counts.tasks, labels: counts.labels, checklistItems: counts.checklistItems, comments: counts.comments },
  );
  const unfit: Message[] = [];
  if (notes.shortened > 0) unfit.push(message('{count, plural, one {# text was} other {# texts were}} shortened to fit', { count: notes.shortened }));
  if (notes.labelsDropped > 0) {
    unfit.push(message('{count, plural, one {# label} other {# labels}} past {max} per board left out', { count: notes.labelsDropped, max: LIMITS.labelsPerBoard }));
  }
  if (notes.taskLabelsDropped > 0) {
    unfit.push(message('{count, plural, one {# card label} other {# card labels}} past {max} per task left out', { count: notes.taskLabelsDropped, max: LIMITS.labelsPerTask }));
  }
  if (notes.checklistItemsDropped > 0) {
    unfit.push(
      message('{count, plural, one {# checklist item} other {# checklist items}} past {max} per task left out', { count: notes.checklistItemsDropped, max: LIMITS.checklistItemsPerTask }),
    );
  }
  const [first, ...rest] = unfit;
  if (first === undefined) return imported;
  // i18n: Parts of a list of what an import left out, one after the other.
  const listed = rest.reduce((list, next) => message('{list}; {next}', { list, next }), first);
  // i18n: {imported} is the sentence saying what was imported; {notes} lists what did not fit.
  return message('{imported} {notes}.', { imported, notes: listed });
}
