/**
 * Lingui's macros for web code that a browser test imports into Node (queue-property.spec.ts runs
 * the web app's write queue against the real server). The web app's build compiles `t`, `msg`,
 * `plural` and `<Trans>` at build time (web/vite.config.ts); Node has no build, so e2e/run.ts hands
 * this Babel plugin to Playwright's own transform (the variables its component testing uses,
 * PW_TEST_SOURCE_TRANSFORM and _SCOPE), for web/src only. English text is kept in the compiled
 * descriptors, so what the spec sees reads as the app's English.
 */
const { default: linguiMacro } = require('@lingui/babel-plugin-lingui-macro');

module.exports = function linguiMacros(babel) {
  return linguiMacro(babel, { stripNonEssentialFields: false });
};
