/**
 * In-page measuring code for the browser benchmarks, installed with `addInitScript` before any
 * page script runs, as `window.__tw`. It is a string because it runs in the page (DOM types),
 * not in Node; every time is `performance.now()` in the page, so no Playwright round trip
 * lands inside a measurement.
 *
 * - `when(test, timeoutMs)`: resolves with the time of the first frame after `test()` holds
 *   (checked on every DOM mutation and every frame);
 * - `interactive()`: first card of each column in the viewport, both count badges showing a
 *   number, "Create Task" enabled;
 * - `switchFilter(label)`: click → both columns idle, not stale, showing only that priority;
 * - `completeFirst()`: click "Mark complete" on the first open card → both badges updated;
 * - `scrollCompletedToEnd(limitMs)`: scrolls the Completed column until no page is left.
 */
export const PAGE_PROBES = String.raw`
(() => {
  const column = (title) => {
    for (const h of document.querySelectorAll('h2')) if ((h.textContent || '').trim() === title) return h.closest('section');
    return null;
  };
  const countOf = (section) => {
    // The number as shown (the header also holds the count spelled out for screen readers).
    const shown = section && section.querySelector('header .column__count [aria-hidden="true"], header .column__wip [aria-hidden="true"]');
    const match = /(\d[\d,.\u202f\u00a0]*)/.exec(shown ? shown.textContent || '' : '');
    return match ? Number(match[1].replace(/[^\d]/g, '')) : null;
  };
  const cards = (section) => (section ? [...section.querySelectorAll('[role="feed"] article')] : []);
  const inView = (el) => {
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top < window.innerHeight && r.bottom > 0;
  };
  const button = (root, text) => [...root.querySelectorAll('button')].find((b) => (b.textContent || '').trim() === text);
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));

  const when = (test, timeoutMs) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      let done = false;
      const observer = new MutationObserver(() => {
        if (!done && test()) finish();
      });
      const finish = () => {
        done = true;
        observer.disconnect();
        nextFrame().then(resolve);
      };
      const check = () => {
        if (done) return;
        if (test()) finish();
        else if (performance.now() - started > timeoutMs) {
          done = true;
          observer.disconnect();
          reject(new Error('timed out after ' + timeoutMs + ' ms'));
        } else requestAnimationFrame(check);
      };
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      check();
    });

  const interactive = () => {
    const todo = column('Tasks To Do');
    const done = column('Completed');
    const create = button(document, 'Create Task');
    return (
      inView(cards(todo)[0]) &&
      inView(cards(done)[0]) &&
      countOf(todo) !== null &&
      countOf(done) !== null &&
      !!create &&
      !create.disabled &&
      create.getAttribute('aria-disabled') !== 'true'
    );
  };

  const switchFilter = async (label) => {
    const group = document.querySelector('[role="group"]');
    const target = group && button(group, label);
    if (!target) throw new Error('no filter button ' + label);
    const settled = () => {
      if (target.getAttribute('aria-pressed') !== 'true') return false;
      for (const title of ['Tasks To Do', 'Completed']) {
        const section = column(title);
        if (!section || section.getAttribute('aria-busy') === 'true') return false;
        if (section.querySelector('[class*="stale"]')) return false;
        const list = cards(section);
        if (list.length === 0) return false;
        if (label !== 'All Tasks' && !list.every((card) => (card.textContent || '').includes(label))) return false;
      }
      return true;
    };
    const t0 = performance.now();
    target.click();
    return (await when(settled, 30000)) - t0;
  };

  const completeFirst = async () => {
    const before = { todo: countOf(column('Tasks To Do')), done: countOf(column('Completed')) };
    const card = cards(column('Tasks To Do'))[0];
    const target = card && button(card, 'Mark complete');
    if (!target) throw new Error('no "Mark complete" button on the first open card');
    const t0 = performance.now();
    target.click();
    const t1 = await when(
      () => countOf(column('Tasks To Do')) === before.todo - 1 && countOf(column('Completed')) === before.done + 1,
      30000,
    );
    return t1 - t0;
  };

  const scrollCompletedToEnd = async (limitMs) => {
    const section = column('Completed');
    const feed = section.querySelector('[role="feed"]');
    let scroller = feed.parentElement;
    while (scroller && scroller !== document.body && !(scroller.scrollHeight > scroller.clientHeight + 1)) scroller = scroller.parentElement;
    const more = () => [...section.querySelectorAll('button')].find((b) => /load more|loading more/i.test(b.textContent || ''));
    const t0 = performance.now();
    while (more() && performance.now() - t0 < limitMs) {
      if (scroller) scroller.scrollTop = scroller.scrollHeight;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await nextFrame();
    const positions = cards(section).map((c) => Number((c.closest('[aria-posinset]') || c).getAttribute('aria-posinset') || 0));
    return {
      ms: performance.now() - t0,
      lastPosition: Math.max(0, ...positions),
      complete: !more(),
      domNodes: document.getElementsByTagName('*').length,
    };
  };

  window.__tw = { when, interactive, switchFilter, completeFirst, scrollCompletedToEnd };
})();
`;
