import { plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useId, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { Person } from '#shared/schemas/comments.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { usePeople } from '../api/get-people.ts';

/*
 * `@` in a comment box offers the people who can see the task (the server's list, filtered as
 * one types) and inserts the chosen address, `@ada@example.com `. The ARIA 1.2 combobox pattern
 * on the textarea: `role="combobox"` with `aria-expanded`, `aria-controls` and
 * `aria-activedescendant`; focus stays in the textarea; arrows move through the options,
 * Enter or Tab inserts, Escape closes the list and nothing else (not the task dialog, not the
 * edit). Hand-written (docs/decisions/063-mention-autocomplete-hand-written.md).
 */

/** At most this many people are offered at once; typing narrows the list. */
export const MENTION_OPTIONS_MAX = 8;

/** Characters an address can hold (shared/mentions.ts): the `@` of a mention follows none of them. */
const ADDRESS_CHAR = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~@-]/;

/** The mention being typed at `caret`: where its `@` is and what follows it up to the caret; null when none. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const start = before.lastIndexOf('@');
  if (start === -1) return null;
  const query = before.slice(start + 1);
  if (/[\s@]/.test(query) || query.length > 60) return null;
  const previous = start === 0 ? '' : before.charAt(start - 1);
  if (previous !== '' && ADDRESS_CHAR.test(previous)) return null;
  return { start, query };
}

/** The people whose name (any word of it) or address starts with `query`, ignoring case; names first. */
export function matchPeople(people: readonly Person[], query: string, limit = MENTION_OPTIONS_MAX): Person[] {
  const q = query.toLowerCase();
  if (q === '') return people.slice(0, limit);
  const byName: Person[] = [];
  const byAddress: Person[] = [];
  for (const person of people) {
    const name = person.fullName.toLowerCase();
    if (name.startsWith(q) || name.split(/\s+/).some((word) => word.startsWith(q))) byName.push(person);
    else if (person.email.startsWith(q)) byAddress.push(person);
  }
  return [...byName, ...byAddress].slice(0, limit);
}

/** `text` with the mention typed from `start` to `caret` replaced by the address and a space; the caret after it. */
export function insertMention(text: string, start: number, caret: number, email: string): { text: string; caret: number } {
  const inserted = `@${email} `;
  const rest = text.slice(caret).replace(/^\s/, '');
  return { text: text.slice(0, start) + inserted + rest, caret: start + inserted.length };
}

export interface MentionAutocomplete {
  /** Spread on the textarea. */
  inputProps: {
    role: 'combobox';
    'aria-autocomplete': 'list';
    'aria-expanded': boolean;
    'aria-controls': string;
    'aria-activedescendant': string | undefined;
    onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
    onSelect: () => void;
    onBlur: () => void;
  };
  /** The list of people, rendered after the textarea (nothing while closed). */
  list: ReactNode;
  /** Read the caret again after the text changed. */
  update: (text: string, caret: number) => void;
}

/**
 * The autocomplete of one comment box: `text`/`setText` are the box's value, `ref` its textarea.
 * The people are asked for the first time an `@` is typed.
 */
export function useMentionAutocomplete(
  taskId: string,
  ref: RefObject<HTMLTextAreaElement | null>,
  text: string,
  setText: (text: string) => void,
): MentionAutocomplete {
  const id = useId();
  const listId = `${id}-people`;
  const [mention, setMention] = useState<{ start: number; query: string; caret: number } | null>(null);
  const [active, setActive] = useState(0);
  // The mention as it was when Escape closed its list: closed until it changes (typing on reopens it).
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  const people = usePeople(taskId, asked);
  const { t } = useLingui();

  const options = mention === null || people.data === undefined ? [] : matchPeople(people.data, mention.query);
  const keyOf = (m: { start: number; query: string }) => `${String(m.start)}:${m.query}`;
  const open = mention !== null && dismissed !== keyOf(mention) && options.length > 0;
  const activeIndex = Math.min(active, Math.max(0, options.length - 1));
  const optionId = (index: number) => `${id}-person-${String(index)}`;

  const update = (value: string, caret: number) => {
    const found = mentionQueryAt(value, caret);
    if (found !== null) setAsked(true);
    if (found?.start !== mention?.start || found?.query !== mention?.query) setActive(0);
    setMention(found === null ? null : { ...found, caret });
  };

  const choose = (person: Person) => {
    if (mention === null) return;
    const next = insertMention(text, mention.start, mention.caret, person.email);
    // The new value is put in the textarea now, and the caret after the mention in the same
    // event: set a frame later, a key typed in between lands before the caret and the rest of
    // the word after it ("@ada@example.com heck…c").
    flushSync(() => {
      setText(next.text);
      setMention(null);
    });
    const box = ref.current;
    if (box !== null) {
      box.focus();
      box.setSelectionRange(next.caret, next.caret);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return;
    const person = options[activeIndex];
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + options.length) % options.length);
    } else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && person !== undefined) {
      event.preventDefault();
      choose(person);
    } else if (event.key === 'Escape') {
      // Only the list closes: not the task dialog, not the comment being edited.
      event.preventDefault();
      event.stopPropagation();
      setDismissed(keyOf(mention));
    }
  };

  const list = (
    <>
      {/* Present from the start, so the count is announced when the list opens. */}
      <p className="visually-hidden" role="status">
        {open ? mentionStatus(options.length) : ''}
      </p>
      {open ? (
        <ul className="mention-list" id={listId} role="listbox" aria-label={t`People to mention`}>
          {options.map((person, index) => (
            <li
              key={person.email}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              className="mention-list__option"
              // The textarea keeps the focus: a press picks without blurring it.
              onMouseDown={(event) => {
                event.preventDefault();
              }}
              onClick={() => {
                choose(person);
              }}
            >
              <span className="mention-list__name">{person.fullName}</span>
              <span className="mention-list__email">{person.email}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );

  return {
    inputProps: {
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': open,
      'aria-controls': listId,
      'aria-activedescendant': open ? optionId(activeIndex) : undefined,
      onKeyDown,
      onSelect: () => {
        const box = ref.current;
        if (box !== null && box.selectionStart === box.selectionEnd) update(box.value, box.selectionStart);
      },
      onBlur: () => {
        setMention(null);
      },
    },
    list,
    update,
  };
}

/** How many people the open list offers, for the polite status line (made when shown). */
export function mentionStatus(count: number): string {
  const shown = formatNumber(count);
  return t`${plural(count, { one: `${shown} person to mention. Use the arrow keys and Enter.`, other: `${shown} people to mention. Use the arrow keys and Enter.` })}`;
}
