import type { FastifyRequest } from 'fastify';
import type { Translatable } from '#shared/i18n.ts';
import { readerLanguage, storedLanguage, translate, type ReaderLanguage } from './translate.ts';

/**
 * The language a request is answered in: the pseudo-language when `Accept-Language` asks for it
 * first, else the signed-in account's (read with the session or API token, no query of its own),
 * else the header's best match. Signed out, only the header counts, so an answer about an address
 * never tells which language its account speaks.
 */
export function requestLanguage(request: FastifyRequest): ReaderLanguage {
  return readerLanguage(request.headers['accept-language'], request.user ? storedLanguage(request.user.language) : null);
}

/** A text or message in the request's language: the `message` of an answer. */
export function translateFor(request: FastifyRequest, text: Translatable): string {
  return translate(requestLanguage(request), text);
}

/**
 * A text in the language of the account the request has just signed in to (the pseudo-language,
 * when the header asks for it, still wins): the answer of a sign-in that succeeded, given to
 * whoever proved they hold the account.
 */
export function translateForAccount(request: FastifyRequest, accountLanguage: string, text: Translatable): string {
  return translate(readerLanguage(request.headers['accept-language'], storedLanguage(accountLanguage)), text);
}
