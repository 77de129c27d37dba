/** The page → service worker message that lets a waiting new version take over (web/src/sw.ts). */
export const SKIP_WAITING = 'SKIP_WAITING';
