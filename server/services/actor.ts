import type { Language } from '#shared/languages.ts';
import { storedLanguage } from '../i18n/translate.ts';
import type { FastifyRequest } from 'fastify';
import { currentUser } from '../plugins/session.ts';
import type { Viewer } from '../repositories/task-visibility.ts';

/** The signed-in person making a change (`by` of the events). */
export interface Actor extends Viewer {
  fullName: string;
  /** The actor's language: what a mail they cause is written in for an address without an account. */
  language?: Language;
}

/** The signed-in user of a request as the actor of its writes. */
export function actorOf(request: FastifyRequest): Actor {
  const user = currentUser(request);
  return { userId: user.id, email: user.email, fullName: user.fullName, language: storedLanguage(user.language) };
}
