import { describe, expect, it } from 'vitest';
import { linkParts } from './linked-text.tsx';

describe('linkParts', () => {
  it('links http and https addresses, leaving sentence punctuation out', () => {
    expect(linkParts('See https://example.com/a?b=1, or (http://example.org).')).toEqual([
      { text: 'See ' },
      { text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { text: ', or (' },
      { text: 'http://example.org', href: 'http://example.org/' },
      { text: ').' },
    ]);
  });

  it('never links other schemes or bare domains', () => {
    for (const text of ['javascript:alert(1)', 'data:text/html,<script>', 'example.com', 'ftp://example.com', 'mailto:a@b.c']) {
      expect(linkParts(text)).toEqual([{ text }]);
    }
  });

  it('keeps text with no address as one run, and empty text as none', () => {
    expect(linkParts('line one\nline two')).toEqual([{ text: 'line one\nline two' }]);
    expect(linkParts('')).toEqual([]);
  });
});
