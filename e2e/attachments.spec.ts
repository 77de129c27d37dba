/**
 * Files on tasks, in the browser: pick, drop and paste files on the task page; a thumbnail opens
 * the viewer (arrow keys, Esc); an image becomes the card's cover; Delete asks first; a slow
 * upload shows its progress and can be cancelled; a second person sees a new file live. And
 * the safety of serving what people upload: hostile files opened by their URL run nothing. With
 * WEB_SHOTS_DIR set, the task page's files and a card with a cover are saved as screenshots.
 */
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { apiCreateTask, expect, expectAccessible, test, twoPeople } from './fixtures.ts';
import { randomSuffix } from './support/db.ts';
import { board } from './support/pages.ts';

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
const SHOTS = process.env.WEB_SHOTS_DIR;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const section = (page: Page) => {
  const region = page.getByRole('region', { name: /^Attachments/ });
  return {
    region,
    picker: region.getByLabel('Files to attach'),
    items: region.getByRole('list').last().getByRole('listitem'),
    thumbnail: (name: string | RegExp) => region.getByRole('button').filter({ has: page.getByRole('img', { name, exact: true }) }),
    link: (name: string) => region.getByRole('link', { name, exact: true }),
    makeCover: (name: string) => region.getByRole('button', { name: `Make cover ${name}` }),
    removeCover: (name: string) => region.getByRole('button', { name: `Remove cover ${name}` }),
    remove: (name: string) => region.getByRole('button', { name: `Delete ${name}` }),
    progress: (name: string) => region.getByRole('progressbar', { name: `Uploading ${name}` }),
    cancel: (name: string) => region.getByRole('button', { name: `Cancel uploading ${name}` }),
  };
};

/** Files of a task as the API lists them (names, newest first). */
async function namesOf(page: Page, taskId: string): Promise<string[]> {
  const res = await page.request.get(`/api/tasks/${taskId}/attachments`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { attachments: { name: string }[] } }).data.attachments.map((a) => a.name);
}

/**
 * Dispatches a drop (or paste) of `files` the way the browser does, with a real DataTransfer of
 * real Files. (Page code is given as text: the e2e project has no DOM types.)
 */
async function dispatchFiles(page: Page, kind: 'drop' | 'paste', files: { name: string; type: string; bytes: Buffer }[]) {
  const payload = JSON.stringify(files.map((f) => ({ name: f.name, type: f.type, base64: f.bytes.toString('base64') })));
  await page.evaluate(`(() => {
    const data = new DataTransfer();
    for (const f of ${payload}) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], f.name, { type: f.type }));
    }
    if (${JSON.stringify(kind)} === 'paste') {
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      return;
    }
    const target = [...document.querySelectorAll('section')].find((s) => s.querySelector('h3')?.textContent.startsWith('Attachments'));
    if (target === undefined) throw new Error('No Attachments section');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  })()`);
}

/** The natural width of an <img> once loaded (0 before). */
const naturalWidth = (img: Locator) => img.evaluate((el: { complete: boolean; naturalWidth: number }) => (el.complete ? el.naturalWidth : 0));

test.describe('attachments', () => {
  test.use({ signedIn: true });

  test('pick, drop and paste files; the viewer; a cover on the card; delete after asking', async ({ page, user }) => {
    const title = `Review the designs ${randomSuffix()}`;
    const id = await apiCreateTask(page.request, { taskTitle: title, assignee: user.email });
    await page.goto(`/tasks/${id}`);
    const s = section(page);
    await expect(s.region).toBeVisible();

    // Pick: an image and a PDF.
    await s.picker.setInputFiles([
      { name: 'front.png', mimeType: 'image/png', buffer: await png(1200, 800, '#3366cc') },
      { name: 'brief.pdf', mimeType: 'application/pdf', buffer: PDF },
    ]);
    await expect(s.link('brief.pdf')).toBeVisible();
    await expect(s.region.getByText('PDF · 77 bytes')).toBeVisible();
    const front = s.thumbnail('front.png').getByRole('img');
    await expect(front).toBeVisible();
    await expect.poll(() => naturalWidth(front)).toBe(480);

    // Drop another image, and paste a third.
    await dispatchFiles(page, 'drop', [{ name: 'back.png', type: 'image/png', bytes: await png(800, 1200, '#cc3366') }]);
    await expect(s.thumbnail('back.png')).toBeVisible();
    // A pasted image comes as "image.png" from every browser: it gets a name that says when.
    await dispatchFiles(page, 'paste', [{ name: 'image.png', type: 'image/png', bytes: await png(300, 300, '#33cc66') }]);
    const pasted = /^Pasted image \d{4}-\d\d-\d\d \d\d\.\d\d\.\d\d\.png$/;
    await expect(s.thumbnail(pasted)).toBeVisible();
    // The two picked files upload side by side, so either may be the newer one.
    await expect.poll(async () => (await namesOf(page, id)).map((name) => (pasted.test(name) ? 'pasted' : name)).toSorted()).toEqual(['back.png', 'brief.pdf', 'front.png', 'pasted']);
    await expectAccessible(page, 'task page with attachments');
    if (SHOTS) await s.region.screenshot({ path: `${SHOTS}/attachments.png` });

    // The viewer: the image opened, arrow keys to the others, Esc back to where it was opened.
    await s.thumbnail('back.png').click();
    // The viewer is named by the image it shows.
    await expect(page.getByRole('dialog', { name: 'back.png' })).toBeVisible();
    // (The task page on a wide screen is a dialog too: the viewer is the one that counts.)
    const viewer = page.getByRole('dialog').filter({ has: page.getByText(/^\d of 3$/) });
    const position = async () => (await viewer.getByText(/^\d of 3$/).textContent()) ?? '';
    const first = await position();
    await page.keyboard.press('ArrowRight');
    await expect.poll(position).not.toBe(first);
    await expect(page.getByRole('dialog', { name: 'back.png' })).toBeHidden();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(position).toBe(first);
    await expect(page.getByRole('dialog', { name: 'back.png' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'back.png' })).toBeHidden();
    await expect(s.thumbnail('back.png')).toBeFocused();

    // A cover: on the task's card, with the paper clip's count.
    await s.makeCover('front.png').click();
    await expect(s.removeCover('front.png')).toBeVisible();
    await page.goto('/tasks');
    const card = board(page).card(title);
    await expect(card.getByText('4 attachments')).toBeVisible();
    const cover = card.locator('img').first();
    await expect(cover).toHaveAttribute('src', /\/api\/attachments\/[\w-]+\/thumbnail$/);
    await expect.poll(() => naturalWidth(cover)).toBe(480);
    if (SHOTS) await card.screenshot({ path: `${SHOTS}/card-cover.png` });

    // Delete asks first; the cover goes with its file.
    await page.goto(`/tasks/${id}`);
    await s.remove('front.png').click();
    const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Delete this file?' }));
    await confirm.getByRole('button', { name: 'Delete file' }).click();
    await expect(s.link('front.png')).toBeHidden();
    await expect.poll(async () => (await namesOf(page, id)).length).toBe(3);
    await page.goto('/tasks');
    await expect(board(page).card(title).getByText('3 attachments')).toBeVisible();
    await expect(board(page).card(title).locator('img')).toHaveCount(0);
  });

  test('a slow upload shows its progress and Cancel leaves nothing behind', async ({ page, user }) => {
    const id = await apiCreateTask(page.request, { taskTitle: `Upload the video ${randomSuffix()}`, assignee: user.email });
    await page.goto(`/tasks/${id}`);
    const s = section(page);
    await expect(s.region).toBeVisible();
    // About 400 KB a second up: a 4 MB file takes ten seconds.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 400_000 });
    await s.picker.setInputFiles([{ name: 'clip.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(4_000_000, 7) }]);
    const bar = s.progress('clip.bin');
    await expect(bar).toBeVisible();
    await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 15_000 }).toBeGreaterThan(0);
    await s.cancel('clip.bin').click();
    await expect(bar).toBeHidden();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect(await namesOf(page, id)).toEqual([]);
  });

  test('a large file goes resumably, in chunks (tus), and lands like any other', async ({ page, user }) => {
    const id = await apiCreateTask(page.request, { taskTitle: `Big file ${randomSuffix()}`, assignee: user.email });
    await page.goto(`/tasks/${id}`);
    const s = section(page);
    await expect(s.region).toBeVisible();
    const chunks: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/uploads')) chunks.push(request.method());
    });
    await s.picker.setInputFiles([{ name: 'archive.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(21_000_000, 3) }]);
    await expect(s.link('archive.bin')).toBeVisible({ timeout: 30_000 });
    await expect(s.region.getByText(/21 MB/)).toBeVisible();
    expect(await namesOf(page, id)).toEqual(['archive.bin']);
    // A creation, then the bytes in several PATCHes.
    expect(chunks[0]).toBe('POST');
    expect(chunks.filter((method) => method === 'PATCH').length).toBeGreaterThan(1);
  });

  test('offline, the section says files need a connection and keeps what it listed', async ({ page, user, context }) => {
    const id = await apiCreateTask(page.request, { taskTitle: `Offline files ${randomSuffix()}`, assignee: user.email });
    const upload = await page.request.post(`/api/tasks/${id}/attachments`, { multipart: { file: { name: 'kept.txt', mimeType: 'text/plain', buffer: Buffer.from('kept') } } });
    expect(upload.status()).toBe(201);
    await page.goto(`/tasks/${id}`);
    const s = section(page);
    await expect(s.link('kept.txt')).toBeVisible();
    await context.setOffline(true);
    await expect(s.region.getByText('Attachments need a connection')).toBeVisible();
    await expect(s.link('kept.txt')).toBeVisible();
    await expect(s.region.getByRole('button', { name: 'Add files' })).toBeHidden();
    await context.setOffline(false);
    await expect(s.region.getByRole('button', { name: 'Add files' })).toBeVisible();
  });

  /**
   * Twenty files made to run script or break headers, each opened by its URL: none runs anything
   * (a script would set the page's title or open a dialog), every answer carries nosniff and the
   * sandbox policy, and the download name arrives as one well-formed header.
   */
  test('hostile files opened by their URL run nothing and break no header', async ({ page, user }) => {
    // A hang guard: twenty uploads, twenty header reads and twenty page loads take 40–80 s on two
    // busy cores.
    test.setTimeout(150_000);
    const id = await apiCreateTask(page.request, { taskTitle: `Hostile ${randomSuffix()}`, assignee: user.email });
    const script = '<script>document.title="PWNED";alert(1)</script>';
    const gif = Buffer.concat([Buffer.from('GIF89a/*\x01\x00\x01\x00\x00\x00\x00;*/=1;'), Buffer.from('document.title="PWNED";alert(1)//')]);
    const pngHtml = Buffer.concat([await png(2, 2, '#000000'), Buffer.from(script)]);
    const hostile: { name: string; type: string; bytes: Buffer }[] = [
      { name: 'x.svg', type: 'image/svg+xml', bytes: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">${script}</svg>`) },
      { name: 'x.html', type: 'text/html', bytes: Buffer.from(`<!doctype html><title>ok</title>${script}`) },
      { name: 'x.xhtml', type: 'application/xhtml+xml', bytes: Buffer.from(`<html xmlns="http://www.w3.org/1999/xhtml">${script}</html>`) },
      { name: 'x.xml', type: 'text/xml', bytes: Buffer.from(`<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>`) },
      { name: 'polyglot.gif', type: 'image/gif', bytes: gif },
      { name: 'image-with-html.png', type: 'image/png', bytes: pngHtml },
      { name: 'image.png', type: 'text/html', bytes: Buffer.from(`<html>${script}</html>`) },
      { name: 'x.js', type: 'text/javascript', bytes: Buffer.from('document.title="PWNED";alert(1)') },
      { name: 'x.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n<< /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >>\n%%EOF') },
      { name: 'x.txt', type: 'text/plain', bytes: Buffer.from(script) },
      { name: 'x.css', type: 'text/css', bytes: Buffer.from('body{background:url(javascript:alert(1))}') },
      { name: 'x.mht', type: 'message/rfc822', bytes: Buffer.from(`Content-Type: text/html\r\n\r\n${script}`) },
      { name: 'a"b.html', type: 'text/html', bytes: Buffer.from(script) },
      { name: 'x.html"; filename="evil.html', type: 'text/html', bytes: Buffer.from(script) },
      { name: 'line\r\nSet-Cookie: pwned=1.txt', type: 'text/plain', bytes: Buffer.from('x') },
      { name: 'Отчёт за квартал.html', type: 'text/html', bytes: Buffer.from(script) },
      { name: '報告書.svg', type: 'image/svg+xml', bytes: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${script}</svg>`) },
      { name: 'gpj.\u202Ehtml', type: 'text/html', bytes: Buffer.from(script) },
      { name: '../../etc/passwd', type: 'text/plain', bytes: Buffer.from('root') },
      { name: `${'long'.repeat(100)}.html`, type: 'text/html', bytes: Buffer.from(script) },
    ];
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto('/');
    const urls: { name: string; url: string }[] = [];
    /** The URLs answered inline (images): a page shows them; the rest are downloads. */
    const shown: string[] = [];
    for (const file of hostile) {
      const res = await page.request.post(`/api/tasks/${id}/attachments`, { multipart: { file: { name: file.name, mimeType: file.type, buffer: file.bytes } } });
      expect(res.status(), `${file.name}: ${await res.text()}`).toBe(201);
      const { attachment } = ((await res.json()) as { data: { attachment: { name: string; url: string; type: string } } }).data;
      urls.push({ name: attachment.name, url: attachment.url });
    }
    for (const { name, url } of urls) {
      const head = await page.request.get(url);
      expect(head.status(), name).toBe(200);
      const headers = head.headersArray();
      expect(headers.filter((h) => h.name.toLowerCase() === 'content-disposition'), name).toHaveLength(1);
      expect(headers.some((h) => h.name.toLowerCase() === 'set-cookie'), name).toBe(false);
      expect(head.headers()['x-content-type-options'], name).toBe('nosniff');
      expect(head.headers()['content-security-policy'], name).toBe("sandbox; default-src 'none'");
      const disposition = head.headers()['content-disposition'] ?? '';
      expect(disposition, name).not.toMatch(/[\r\n]/);
      const inline = disposition.startsWith('inline');
      // Opened by its URL in the page: a download starts, or an image is shown; no script runs either way.
      if (inline) {
        shown.push(url);
        await page.goto(url);
      } else {
        // A download leaves the page where it was: the next URL opens from there.
        const download = page.waitForEvent('download');
        await page.goto(url).catch(() => undefined);
        expect((await download).suggestedFilename(), name).not.toMatch(/[/\\\r\n]/);
      }
      expect(await page.title(), name).not.toBe('PWNED');
    }
    // Shown inside the page too, as a card's cover or an <img> would: nothing runs. The page waits
    // until every image has loaded or failed and every frame of an inline answer has loaded (a
    // frame of a download holds no document; the network of a page that started downloads need
    // not fall idle, so it is not waited for).
    await page.goto('/');
    await page.evaluate(`(async () => {
      const shown = ${JSON.stringify(shown)};
      const settled = [];
      for (const url of ${JSON.stringify(urls.map((u) => u.url))}) {
        const img = document.createElement('img');
        settled.push(new Promise((done) => { img.onload = done; img.onerror = done; }));
        img.src = url;
        document.body.append(img);
        const frame = document.createElement('iframe');
        if (shown.includes(url)) settled.push(new Promise((done) => { frame.onload = done; }));
        frame.src = url;
        document.body.append(frame);
      }
      await Promise.all(settled);
    })()`);
    expect(await page.title()).not.toBe('PWNED');
    expect(dialogs).toEqual([]);
  });
});

test('a second person sees a new file at once', async ({ browser, createUser }) => {
  const { alice, bob, alicePage, bobPage, close } = await twoPeople(browser, createUser);
  try {
    const id = await apiCreateTask(alicePage.request, { taskTitle: `Shared files ${randomSuffix()}`, assignee: bob.email });
    await alicePage.goto(`/tasks/${id}`);
    await bobPage.goto(`/tasks/${id}`);
    await expect(section(bobPage).region).toBeVisible();
    await section(alicePage).picker.setInputFiles([{ name: 'plan.png', mimeType: 'image/png', buffer: await png(200, 100, '#999999') }]);
    await expect(section(bobPage).thumbnail('plan.png')).toBeVisible();
    await expect(section(bobPage).region.getByText(alice.fullName)).toBeVisible();
  } finally {
    await close();
  }
});

