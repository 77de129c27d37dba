import { message } from './i18n.ts';

/**
 * What the board's polite live region says when someone else changes a task ("Ada Lovelace
 * completed “Send the invoice”"). `who` is the full name of the person who made the change.
 */
export const LIVE_MESSAGES = {
  created: (who: string, title: string) => message('{who} created “{title}”', { who, title }),
  assignedToYou: (who: string, title: string) => message('{who} assigned “{title}” to you', { who, title }),
  completed: (who: string, title: string) => message('{who} completed “{title}”', { who, title }),
  reopened: (who: string, title: string) => message('{who} reopened “{title}”', { who, title }),
  reassigned: (who: string, title: string, to: string) => message('{who} assigned “{title}” to {to}', { who, title, to }),
  edited: (who: string, title: string) => message('{who} edited “{title}”', { who, title }),
  removed: (who: string, title: string) => message('{who} removed “{title}” from your board', { who, title }),
  removedUnknown: (who: string) => message('{who} removed a task from your board', { who }),
} as const;
