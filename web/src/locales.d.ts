/** A `.po` catalog, compiled by Lingui's Vite plugin when imported (web/src/app/i18n.ts). */
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
