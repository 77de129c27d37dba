/** Answers of the account, settings and mail-preference calls, shown as-is by the web app. */
export const ACCOUNT_MESSAGES = {
  settingsSaved: 'Your notification settings were saved.',
  unsubscribed: {
    assigned: 'You will no longer get a mail when someone assigns you a task.',
    reminders: 'You will no longer get "due soon" and "overdue" reminder mails.',
    boards: 'You will no longer get a mail when someone adds you to a board.',
    mentions: 'You will no longer get a mail when someone mentions you in a comment.',
  },
  invalidUnsubscribeToken: 'This unsubscribe link is not valid. Turn mails off on your account page instead.',
  resetRequested: 'If the address is valid, we have sent it a mail with the next step.',
  passwordReset: 'Your password was changed and every device was signed out. Please sign in with the new password.',
  profileSaved: 'Your name was saved.',
  passwordChanged: 'Your password was changed. Your other devices were signed out.',
  wrongPassword: 'The password is not correct.',
  loggedOutEverywhere: 'You were signed out on every device.',
  accountDeleted: 'Your account was deleted.',
} as const;
