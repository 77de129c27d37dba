import { describe, expect, it } from 'vitest';
import { findMentions, mentionedAddresses, MENTIONS_PER_COMMENT } from './mentions.ts';

describe('mentionedAddresses', () => {
  it('reads @address tokens, lower-cased, in order', () => {
    expect(mentionedAddresses('@Ada@Example.com and @bob@example.org please look')).toEqual(['ada@example.com', 'bob@example.org']);
  });

  it('leaves trailing punctuation out of the address', () => {
    expect(mentionedAddresses('Thanks @ada@example.com. Also (@bob@example.org), @cy@example.net, @di@example.io; @ed@example.eu: @fa@example.fr-')).toEqual([
      'ada@example.com',
      'bob@example.org',
      'cy@example.net',
      'di@example.io',
      'ed@example.eu',
      'fa@example.fr',
    ]);
  });

  it('counts each address once', () => {
    expect(mentionedAddresses('@ada@example.com @ADA@example.com @ada@example.com')).toEqual(['ada@example.com']);
  });

  it('ignores a plain address, an @ inside a word, and tokens that are not addresses', () => {
    expect(mentionedAddresses('mail bob@example.com or x@ada@example.com, @ada, @ada@localhost, @@ada@example.com, email@')).toEqual([]);
  });

  it('accepts the start of the text and any non-address character before the @', () => {
    expect(mentionedAddresses('@a@example.com\n@b@example.com\t"@c@example.com"')).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
  });

  it(`keeps at most ${MENTIONS_PER_COMMENT} distinct addresses, the first ones`, () => {
    const text = Array.from({ length: MENTIONS_PER_COMMENT + 5 }, (_, i) => `@p${i}@example.com`).join(' ');
    const found = mentionedAddresses(text);
    expect(found).toHaveLength(MENTIONS_PER_COMMENT);
    expect(found[0]).toBe('p0@example.com');
    expect(found.at(-1)).toBe(`p${MENTIONS_PER_COMMENT - 1}@example.com`);
  });
});

describe('findMentions', () => {
  it('gives each token its place in the text, repeats included', () => {
    const text = 'Hi @Ada@example.com. And @ada@example.com!';
    const tokens = findMentions(text);
    expect(tokens).toEqual([
      { start: 3, end: 19, email: 'ada@example.com' },
      { start: 25, end: 41, email: 'ada@example.com' },
    ]);
    expect(text.slice(3, 19)).toBe('@Ada@example.com');
  });
});
