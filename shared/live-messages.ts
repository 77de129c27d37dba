/**
 * What the board's polite live region says when someone else changes a task ("Ada Lovelace
 * completed “Send the invoice”"). `who` is the full name of the person who made the change.
 */
export const LIVE_MESSAGES = {
  created: (who: string, title: string) => `${who} created “${title}”`,
  assignedToYou: (who: string, title: string) => `${who} assigned “${title}” to you`,
  completed: (who: string, title: string) => `${who} completed “${title}”`,
  reopened: (who: string, title: string) => `${who} reopened “${title}”`,
  reassigned: (who: string, title: string, to: string) => `${who} assigned “${title}” to ${to}`,
  edited: (who: string, title: string) => `${who} edited “${title}”`,
  removed: (who: string, title: string) => `${who} removed “${title}” from your board`,
  removedUnknown: (who: string) => `${who} removed a task from your board`,
} as const;
