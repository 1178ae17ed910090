// The README's pictures of owaredb serve: a laptop and a phone view of an endgame, and the
// opening with the search's suggestions.
//   node screenshot.mjs /path/to/owaredb OUTDIR
//   (writes OUTDIR/oracle.png, oracle-phone.png, opening.png)
// Builds abapa levels 0..12 and their bound files in a temporary directory and shows a
// 12-seed endgame in which 36 seeds have been captured (South 20, North 16), North to move:
// each move coloured by its result under that score, with the bound files' certainty. Then
// the opening, far above those levels: the search's move and its values, once it answered.
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { generate, launchChromium, owaredb, removeDir, startServer, tempDir } from './common.mjs';

const [bin, out] = process.argv.slice(2);
if (!bin || !out) {
  console.error('usage: node screenshot.mjs /path/to/owaredb OUTDIR');
  process.exit(2);
}
const dir = tempDir('owaredb-screenshot-');
let server;
try {
  generate(bin, dir, 'abapa', 12);
  owaredb(bin, ['generate', '--bounds', '--rules', 'abapa', '--max-seeds', '12', '--dir', dir, '--threads', '2']);
  server = await startServer(bin, ['--dir', dir]);
  // North to move (pits 0..5 are North's), worth +6 to North; the six moves span +6 to -12.
  const query = `?rules=abapa&position=${encodeURIComponent('1 1 2 1 3 1 0 0 0 1 0 2')}&turn=north&south=20&north=16`;
  const ready = () => document.body.dataset.state === 'ready';
  const searched = () => document.body.dataset.state === 'missing' && document.body.dataset.search === 'done';
  const shots = [
    ['oracle.png', { viewport: { width: 1280, height: 800 } }, query, ready],
    ['oracle-phone.png', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }, query, ready],
    ['opening.png', { viewport: { width: 1100, height: 540 } }, '', searched],
  ];
  for (const [name, options, q, shown] of shots) {
    const browser = await launchChromium(chromium, options);
    const page = await browser.context.newPage();
    await page.goto(server.url + q);
    await page.waitForFunction(shown, null, { timeout: 20000 });
    await page.screenshot({ path: join(out, name) });
    console.log(`wrote ${join(out, name)}`);
    await browser.close();
  }
} finally {
  if (server) await server.stop();
  removeDir(dir);
}
