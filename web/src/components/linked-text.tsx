import type { ReactNode } from 'react';
import { cx } from '#web/lib/cx.ts';
import './linked-text.css';

/*
 * Only explicit http:// and https:// addresses become links: never `javascript:`, `data:` or a
 * bare domain. Trailing punctuation that usually ends a sentence is left out of the link.
 * (linkify-it would also link bare domains and e-mail addresses, which we do not want; the
 * rule is a dozen lines.)
 */
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?)\]}'"»]+$/;

function safeHref(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Splits text into plain runs and links (exported for tests). */
export function linkParts(text: string): ({ text: string } | { text: string; href: string })[] {
  const parts: ({ text: string } | { text: string; href: string })[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    const candidate = match[0].replace(TRAILING, '');
    const href = safeHref(candidate);
    if (href === null) continue;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: candidate, href });
    last = start + candidate.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/**
 * User text shown as text: line breaks kept (CSS `pre-wrap`), addresses clickable, never
 * parsed as HTML (React escapes every run). Links open in a new tab without giving it a
 * handle on this one (`noopener`) or telling it where the click came from (`noreferrer`).
 */
export function LinkedText({ text, className }: { text: string; className?: string }): ReactNode {
  return (
    <div className={cx('linked-text', className)} dir="auto">
      {linkParts(text).map((part, i) =>
        'href' in part ? (
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
