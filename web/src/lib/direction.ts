/*
 * Left and right on screen against the start and end of the layout. In Arabic the page is laid
 * out right to left (`<html dir="rtl">`, app/i18n.ts): what comes first stands on the right. The
 * keys and the pointer are physical (ArrowLeft is the key pointing left, a hitbox's 'left' edge
 * the one on the left of the screen), so code that reads them and moves something along the
 * layout (to the previous column, a day earlier) asks here which way that is.
 */

/** An element that sets the direction of what it holds (`dir="auto"`, on a user's text, does not). */
const DIR_SET = '[dir="rtl" i], [dir="ltr" i]';

/**
 * Whether `element` (or, without one, the page) is laid out right to left: the nearest `dir` of
 * rtl or ltr decides, else the page's.
 */
export function isRtl(element?: Element | null): boolean {
  const decided = element?.closest(DIR_SET) ?? document.documentElement;
  return decided.getAttribute('dir')?.toLowerCase() === 'rtl';
}

/** The side of the screen the layout starts on: 'left', or 'right' in RTL. */
export function startSide(element?: Element | null): 'left' | 'right' {
  return isRtl(element) ? 'right' : 'left';
}

/**
 * ArrowLeft and ArrowRight as a step along the layout: -1 towards its start (the previous
 * column, an earlier day), 1 towards its end; 0 for any other key. In RTL ArrowLeft goes
 * towards the end: the key still points where the thing moves on screen.
 */
export function inlineStep(key: string, element?: Element | null): -1 | 0 | 1 {
  if (key !== 'ArrowLeft' && key !== 'ArrowRight') return 0;
  return (key === 'ArrowLeft') !== isRtl(element) ? -1 : 1;
}
