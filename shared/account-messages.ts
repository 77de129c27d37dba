import { text } from './i18n.ts';

/** Answers of the account, settings and mail-preference calls, shown as-is by the web app. */
export const ACCOUNT_MESSAGES = {
  settingsSaved: text('Your notification settings were saved.'),
  languageSaved: text('Your language and formats were saved.'),
  unsubscribed: {
    assigned: text('You will no longer get a mail when someone assigns you a task.'),
    reminders: text('You will no longer get "due soon" and "overdue" reminder mails.'),
    boards: text('You will no longer get a mail when someone adds you to a board.'),
    mentions: text('You will no longer get a mail when someone mentions you in a comment.'),
  },
  invalidUnsubscribeToken: text('This unsubscribe link is not valid. Turn mails off on your account page instead.'),
  resetRequested: text('If the address is valid, we have sent it a mail with the next step.'),
  passwordReset: text('Your password was changed and every device was signed out. Please sign in with the new password.'),
  profileSaved: text('Your name was saved.'),
  passwordChanged: text('Your password was changed. Your other devices were signed out.'),
  wrongPassword: text('The password is not correct.'),
  loggedOutEverywhere: text('You were signed out on every device.'),
  accountDeleted: text('Your account was deleted.'),
  twoStepSetupStarted: text('Scan the QR code with your authenticator app, then enter the code it shows.'),
  twoStepOn: text('Two-step sign-in is on. Save these recovery codes now: they are shown only once.'),
  twoStepAlreadyOn: text('Two-step sign-in is already on. Turn it off first to set up another app.'),
  twoStepNotStarted: text('Start the set-up first: there is no new secret to confirm.'),
  twoStepNotOn: text('Two-step sign-in is not on.'),
  twoStepOff: text('Two-step sign-in is off.'),
  recoveryCodesRenewed: text('New recovery codes: the old ones no longer work. Save these now: they are shown only once.'),
} as const;
