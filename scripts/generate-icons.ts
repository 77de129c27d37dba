/**
 * `node scripts/generate-icons.ts`: renders the app's icons (web/public/icons/*.png) from its one
 * mark, web/public/favicon.svg, in Debian's Chromium. Run it again after changing the mark and
 * commit the PNGs; the build only copies them.
 *
 * - icon-192.png, icon-512.png (`purpose: "any"`): the mark as it is, transparent outside its
 *   rounded corners.
 * - icon-maskable-192.png, icon-maskable-512.png (`purpose: "maskable"`) and apple-touch-icon.png
 *   (180 px; iOS rounds the corners itself and shows transparency as black): the mark's square
 *   without rounded corners, so the platform's mask only ever cuts into the background; the check
 *   lies within the central circle of 80 % diameter that every mask keeps
 *   (https://web.dev/articles/maskable-icon).
 * - badge-96.png: the check alone, white on transparent: Android draws a notification's badge
 *   from its alpha channel only.
 */
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromeArgs, chromePath, repoRoot } from '../e2e/support/paths.ts';

const mark = readFileSync(join(repoRoot, 'web/public/favicon.svg'), 'utf8');
const outDir = join(repoRoot, 'web/public/icons');

/** The mark with square corners: the background reaches every edge of a maskable icon. */
const fullBleed = mark.replace(/ rx="[\d.]+"/, '');
if (fullBleed === mark) throw new Error('web/public/favicon.svg: expected the background <rect> to have an rx attribute.');
/** The check alone: the mark without its background. */
const checkOnly = mark.replace(/<rect [^>]*\/>/, '');

const icons = [
  { file: 'icon-192.png', size: 192, svg: mark },
  { file: 'icon-512.png', size: 512, svg: mark },
  { file: 'icon-maskable-192.png', size: 192, svg: fullBleed },
  { file: 'icon-maskable-512.png', size: 512, svg: fullBleed },
  { file: 'apple-touch-icon.png', size: 180, svg: fullBleed },
  { file: 'badge-96.png', size: 96, svg: checkOnly },
];

const browser = await chromium.launch({ executablePath: chromePath, args: chromeArgs, headless: true });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { file, size, svg } of icons) {
    await page.setViewportSize({ width: size, height: size });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block}</style>${sized}`);
    await page.screenshot({ path: join(outDir, file), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    process.stdout.write(`web/public/icons/${file} (${size}×${size})\n`);
  }
} finally {
  await browser.close();
}
