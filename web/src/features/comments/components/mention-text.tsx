import type { ReactNode } from 'react';
import { findMentions } from '#shared/mentions.ts';
import type { Person } from '#shared/schemas/comments.ts';
import { linkParts } from '#web/components/linked-text.tsx';
import { cx } from '#web/lib/cx.ts';

type Part = { text: string } | { text: string; href: string } | { email: string; name: string | undefined };

/**
 * A comment's text split into plain runs, links and mentions. Only an `@address` the server
 * counted (the comment's `mentions`) is a mention; any other `@text` stays as typed. Exported
 * for tests.
 */
export function mentionParts(text: string, mentions: readonly string[], people: readonly Person[]): Part[] {
  const counted = new Set(mentions);
  const names = new Map(people.map((person) => [person.email, person.fullName]));
  const parts: Part[] = [];
  let last = 0;
  for (const token of findMentions(text)) {
    if (!counted.has(token.email)) continue;
    if (token.start > last) parts.push(...linkParts(text.slice(last, token.start)));
    parts.push({ email: token.email, name: names.get(token.email) });
    last = token.end;
  }
  if (last < text.length) parts.push(...linkParts(text.slice(last)));
  return parts;
}

/**
 * A comment's body as text (never parsed as HTML: React escapes every run), line breaks kept,
 * http(s) addresses as links, and each counted mention as the person's name ("@Ada Lovelace")
 * with the address as its title and in its accessible text. A mentioned person the list no
 * longer names (they left the board) shows as the address.
 */
export function MentionText({ text, mentions, people, className }: { text: string; mentions: readonly string[]; people: readonly Person[]; className?: string }): ReactNode {
  return (
    <div className={cx('linked-text', className)} dir="auto">
      {mentionParts(text, mentions, people).map((part, i) =>
        'email' in part ? (
          <span key={i} className="mention" title={part.email}>
            {part.name === undefined ? (
              `@${part.email}`
            ) : (
              <>
                @{part.name}
                <span className="visually-hidden"> ({part.email})</span>
              </>
            )}
          </span>
        ) : 'href' in part ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </div>
  );
}
