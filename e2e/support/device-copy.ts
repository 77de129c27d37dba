import type { Page } from '@playwright/test';

/**
 * What the device copy holds, as JSON ('' when there is no copy at all). Read straight from
 * IndexedDB; it never creates the database (that would leave it without its store).
 */
export const readCopy = (page: Page): Promise<string> =>
  page.evaluate<string>(`new Promise((resolve, reject) => {
    const open = indexedDB.open('taskwise-device-copy');
    open.onupgradeneeded = () => open.transaction.abort();
    open.onerror = () => resolve('');
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('copy')) { db.close(); resolve(''); return; }
      const tx = db.transaction('copy');
      const values = {};
      const keys = tx.objectStore('copy').getAllKeys();
      keys.onsuccess = () => {
        const all = tx.objectStore('copy').getAll();
        all.onsuccess = () => {
          keys.result.forEach((key, i) => { values[String(key)] = all.result[i]; });
          db.close();
          resolve(JSON.stringify(values));
        };
        all.onerror = () => reject(all.error);
      };
    };
  })`);

