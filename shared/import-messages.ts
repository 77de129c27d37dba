import { LIMITS } from './constants.ts';

/** Texts of the Trello import (server answers and the web app's messages). */
export const IMPORT_MESSAGES = {
  notATrelloExport: 'This is not a Trello board export: choose the JSON file of Trello\'s "Print, export and share → Export as JSON".',
  tooLarge: `The file is larger than ${LIMITS.importMaxBytes / 1024 / 1024} MB, the most one import takes.`,
} as const;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

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
export function trelloImportedMessage(counts: ImportCounts, notes: ImportNotes): string {
  const parts = [
    plural(counts.tasks, 'task', 'tasks'),
    plural(counts.labels, 'label', 'labels'),
    plural(counts.checklistItems, 'checklist item', 'checklist items'),
    plural(counts.comments, 'comment', 'comments'),
  ];
  let message = `Imported ${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}.`;
  const unfit: string[] = [];
  if (notes.shortened > 0) unfit.push(`${plural(notes.shortened, 'text was', 'texts were')} shortened to fit`);
  if (notes.labelsDropped > 0) unfit.push(`${plural(notes.labelsDropped, 'label', 'labels')} past ${LIMITS.labelsPerBoard} per board left out`);
  if (notes.taskLabelsDropped > 0) unfit.push(`${plural(notes.taskLabelsDropped, 'card label', 'card labels')} past ${LIMITS.labelsPerTask} per task left out`);
  if (notes.checklistItemsDropped > 0) unfit.push(`${plural(notes.checklistItemsDropped, 'checklist item', 'checklist items')} past ${LIMITS.checklistItemsPerTask} per task left out`);
  const sentence = unfit.join('; ');
  if (sentence !== '') message += ` ${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
  return message;
}
