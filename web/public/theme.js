/*
 * Sets the colour theme on <html> before the first paint, so a dark-mode user never sees a
 * flash of the light page. A classic blocking script (not a module, not inline: the
 * Content-Security-Policy allows scripts from our own origin only). Kept in step with
 * web/src/lib/theme.ts, which owns the toggle.
 */
(function () {
  var theme = null;
  try {
    theme = localStorage.getItem('taskwise-theme');
  } catch (error) {
    // Storage can be blocked (privacy settings): follow the system.
  }
  if (theme !== 'light' && theme !== 'dark') {
    theme = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  document.documentElement.dataset.theme = theme;
})();
