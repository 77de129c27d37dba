/**
 * In-page measuring code for the board's search box, installed with `addInitScript` next to
 * PAGE_PROBES (it uses `window.__tw.when`), as `window.__twSearch`.
 *
 * `keystroke(text)` sets the box to `text` as typing does (an `input` event), then waits until
 * both columns show that search's answer: the debounced search committed (`?q=` replaced in the
 * URL), both list requests for it answered, both columns idle and not stale, and every card
 * containing the text (or the column showing its "No … match" state). It returns
 * - `total`: keystroke → cards shown, including the box's deliberate pause (debounce);
 * - `afterPause`: search committed → cards shown (the work the app and the server do).
 * `clear()` empties the box again (not measured); a timed-out wait says what it was waiting for.
 */
export const SEARCH_PROBE = String.raw`
(() => {
  let committed = { q: null, at: 0 };
  const note = () => {
    const q = new URL(location.href).searchParams.get('q') || '';
    if (q !== committed.q) committed = { q, at: performance.now() };
  };
  for (const name of ['replaceState', 'pushState']) {
    const original = history[name].bind(history);
    history[name] = (...args) => {
      const result = original(...args);
      note();
      return result;
    };
  }

  // The q of the last answered list request per column.
  const answered = { todo: null, done: null };
  const originalFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await originalFetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input.url, location.href);
    if (url.pathname === '/api/tasks' && response.ok) {
      const status = url.searchParams.get('status');
      if (status === 'todo' || status === 'done') answered[status] = url.searchParams.get('q') || '';
    }
    return response;
  };

  const column = (title) => {
    for (const h of document.querySelectorAll('h2')) if ((h.textContent || '').trim() === title) return h.closest('section');
    return null;
  };

  const keystroke = async (text) => {
    const input = document.querySelector('input[type="search"]');
    if (!input) throw new Error('no search box');
    const q = text.trim();
    const needle = q.toLowerCase();
    const settled = () => {
      if (committed.q !== q || answered.todo !== q || answered.done !== q) return false;
      for (const title of ['Tasks To Do', 'Completed']) {
        const section = column(title);
        if (!section || section.getAttribute('aria-busy') === 'true' || section.querySelector('[class*="stale"]')) return false;
        const cards = [...section.querySelectorAll('[role="feed"] article')];
        if (cards.length === 0) {
          if (!/match/.test(section.textContent || '')) return false;
        } else if (!cards.every((card) => (card.textContent || '').toLowerCase().includes(needle))) {
          return false;
        }
      }
      return true;
    };
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const t0 = performance.now();
    setValue.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const state = () => JSON.stringify({
      text,
      committed: committed.q,
      answered,
      columns: ['Tasks To Do', 'Completed'].map((title) => {
        const section = column(title);
        if (!section) return title + ': missing';
        const cards = [...section.querySelectorAll('[role="feed"] article')];
        const misses = cards.filter((card) => !(card.textContent || '').toLowerCase().includes(needle));
        return title + ': busy ' + section.getAttribute('aria-busy') + ', stale ' + Boolean(section.querySelector('[class*="stale"]')) +
          ', ' + cards.length + ' cards, ' + misses.length + ' without the text' + (misses[0] ? ' (e.g. ' + JSON.stringify((misses[0].textContent || '').slice(0, 120)) + ')' : '');
      }),
    });
    const shown = await window.__tw.when(settled, 30000).catch((error) => {
      throw new Error(error.message + ': ' + state());
    });
    return { total: shown - t0, afterPause: shown - committed.at };
  };

  // Empties the box and waits until the search is gone from the URL and both columns are idle.
  // The unsearched lists may come from the cache without a request, so no answer is awaited.
  const clear = async () => {
    const input = document.querySelector('input[type="search"]');
    if (!input) throw new Error('no search box');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, '');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const idle = () =>
      committed.q === '' &&
      ['Tasks To Do', 'Completed'].every((title) => {
        const section = column(title);
        return section && section.getAttribute('aria-busy') !== 'true' && !section.querySelector('[class*="stale"]');
      });
    await window.__tw.when(idle, 30000);
  };

  window.__twSearch = { keystroke, clear };
})();
`;
