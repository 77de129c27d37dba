import type { Page } from '@playwright/test';

/**
 * Texts on the page that read as plain English, and texts cut off by their box. Run in the page
 * (as source text: the browser tests are type-checked without the DOM's types).
 */
const FIND_PROBLEMS = String.raw`({ allowed, suspect }) => {
    const english = [];
    const cutOff = [];
    // Shown on screen: not hidden, and not a screen reader's text (clipped to nothing).
    const clippedAway = (element) => {
      for (let at = element; at; at = at.parentElement) {
        const style = getComputedStyle(at);
        if (style.clipPath === 'inset(50%)' || style.clip === 'rect(0px, 0px, 0px, 0px)') return true;
      }
      return false;
    };
    const visible = (element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 1 && box.height > 1 && style.visibility !== 'hidden' && !element.closest('[aria-hidden="true"]') && !clippedAway(element);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim() ?? '';
      if (!parent || text === '' || parent.closest('script, style, noscript, code, pre, kbd, input, textarea') || !visible(parent)) continue;
      // Marked as not to be translated (a person's name, their words): still checked for being cut off.
      const theirs = parent.closest('[translate="no"]') !== null;
      let rest = theirs ? '' : text.replace(/\S+@\S+/g, ' ').replace(/https?:\/\/\S+/g, ' ');
      for (const word of allowed) rest = rest.replaceAll(word, ' ');
      const words = rest.match(/[A-Za-z]{3,}/g) ?? [];
      // Without a list of suspects every Latin word is English (the pseudo-language accents them all).
      if (words.some((word) => !allowed.includes(word) && (suspect === null || suspect.includes(word.toLowerCase())))) english.push(text);
      // Cut off: wider than its own box that hides what overflows (an ellipsis is a deliberate
      // cut, with the whole text in a title or on the next screen), reaching past the edge of a
      // box around it that hides what overflows (a scrolling box is fine: it scrolls; so is one
      // that ends its line with an ellipsis, around a name set apart in its sentence, <bdi>), or
      // past the side of the screen.
      const style = getComputedStyle(parent);
      if ((style.overflowX === 'hidden' || style.overflowX === 'clip') && style.textOverflow !== 'ellipsis' && parent.scrollWidth > parent.clientWidth + 1) cutOff.push(text);
      const box = parent.getBoundingClientRect();
      // The nearest box around it that scrolls or hides what overflows, if any.
      let boxed = false;
      for (let at = parent.parentElement; at && at !== document.body; at = at.parentElement) {
        const overflow = getComputedStyle(at).overflowX;
        if (overflow === 'visible') continue;
        boxed = true;
        if (overflow === 'auto' || overflow === 'scroll') break;
        if (getComputedStyle(at).textOverflow === 'ellipsis' && getComputedStyle(parent).display === 'inline') break;
        const edge = at.getBoundingClientRect();
        if (box.right > edge.right + 1 || box.left < edge.left - 1) cutOff.push(text);
        break;
      }
      // With no such box, past the side of the screen (a heading's button pushed off a phone's
      // edge by a long word).
      if (!boxed && (box.right > innerWidth + 1 || box.left < -1)) cutOff.push(text);
    }
    return { english, cutOff };
  }`;

/**
 * The page's English and cut-off texts. `allowed`: words that may show as they are (names, machine
 * words); `suspect`: the only words that count as English (for a language written in Latin
 * letters too) — every other Latin word when it is not given.
 */
export async function findProblems(page: Page, words: { allowed: readonly string[]; suspect?: readonly string[] }): Promise<{ english: string[]; cutOff: string[] }> {
  const options = { allowed: words.allowed, suspect: words.suspect ?? null };
  return page.evaluate<{ english: string[]; cutOff: string[] }>(`(${FIND_PROBLEMS})(${JSON.stringify(options)})`);
}
