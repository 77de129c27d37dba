/**
 * A person's initials, drawn the same on the board's member strip, its settings and its cards:
 * from the full name when the person has an account ("Ada Lovelace" → "AL", "Cher" → "C"), else
 * from the address ("ada.lovelace@x" → "AL", "bob@x" → "B").
 */
export function initialsOf(person: { fullName?: string | null; email: string }): string {
  const words = (person.fullName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) return firstLetters(words.length > 1 ? [words[0] ?? '', words[words.length - 1] ?? ''] : words);
  const local = person.email.split('@')[0] ?? person.email;
  return firstLetters(local.split(/[._+-]+/).filter(Boolean).slice(0, 2));
}

/** Each part's first character, upper-cased (a whole code point: a letter outside the BMP stays whole). */
const firstLetters = (parts: readonly string[]) => parts.map((part) => (Array.from(part)[0] ?? '').toUpperCase()).join('');
