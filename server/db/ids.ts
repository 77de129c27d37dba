import { randomBytes } from 'node:crypto';

/** 128 random bits as 22 base64url characters: unguessable, URL-safe, the same text on both databases. */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}
