/** The attachment lists' cache keys (their own module: the app names the root among the parts kept on the device). */
export const attachmentKeys = {
  all: ['attachments'] as const,
  list: (taskId: string) => [...attachmentKeys.all, taskId] as const,
};
