// owaredb serve's page in a real browser: Debian's Chromium driven by playwright-core.
//   node browser_test.mjs /path/to/owaredb WORKDIR      (screenshots go to WORKDIR)
// Builds abapa levels 0..12, starts `owaredb serve`, loads a 12-seed position and checks
// what the page shows (every move's value, the best moves, the board drawn for the side
// to move, the captured seeds) against `owaredb probe --json` after a click on a pit and
// after each of 10 plies of "play the best move"; then undo/redo, the shareable URL, the
// computer playing both sides, the rules switch, game over, the missing-level message with
// its `owaredb generate` command, and the phone layout (no sideways scrolling).
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { check, generate, launchChromium, probeJson, removeDir, startServer, summary, tempDir } from './common.mjs';

const [bin, work] = process.argv.slice(2);
if (!bin || !work) {
  console.error('usage: node browser_test.mjs /path/to/owaredb WORKDIR');
  process.exit(2);
}

const P0 = '2 1 1 1 1 1 1 0 2 1 0 1'; // 12 seeds, worth +6, 48 plies of perfect play
const other = (side) => (side === 'south' ? 'north' : 'south');
const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `\u2212${-v}` : '0');

// Everything the page shows that the checks compare.
function shown(page) {
  return page.evaluate(() => {
    const d = document.body.dataset;
    const rows = [...document.querySelectorAll('#moves tbody tr')].map((tr) => ({
      move: Number(tr.dataset.move),
      captured: Number(tr.dataset.captured),
      value: Number(tr.dataset.value),
      best: tr.classList.contains('best'),
    }));
    const pits = {};
    const chips = {};
    for (const g of document.querySelectorAll('#board [data-pit]')) {
      pits[g.dataset.pit] = Number(g.querySelector('text.count').textContent);
      const chip = g.querySelector('text.chip-value');
      if (chip) chips[g.dataset.pit] = chip.textContent;
    }
    const stores = {};
    for (const g of document.querySelectorAll('#board [data-store]'))
      stores[g.dataset.store] = Number(g.querySelector('text.store-count').textContent);
    const message = document.getElementById('message');
    return {
      state: d.state,
      position: d.position,
      turn: d.turn,
      ply: Number(d.ply),
      over: d.over === '1',
      rows,
      pits,
      chips,
      stores,
      message: message.hidden ? '' : message.textContent,
      generate: document.getElementById('generate')?.textContent ?? '',
      share: document.getElementById('share').href,
      pvSteps: document.querySelectorAll('#pv .step').length,
      best: !document.getElementById('best').disabled,
    };
  });
}

async function settle(page, position, turn, state = 'ready') {
  await page.waitForFunction(
    ([p, t, s]) => document.body.dataset.state === s && (p === null || document.body.dataset.position === p) &&
      (t === null || document.body.dataset.turn === t),
    [position, turn, state],
    { timeout: 20000 },
  );
  return shown(page);
}

// The page against `owaredb probe --json` of the position it shows.
function compare(what, s, cli) {
  check(`${what}: the position`, s.position === cli.position, `${s.position} vs ${cli.position}`);
  const want = cli.moves.map((m) => ({ move: m.move, captured: m.captured, value: m.value, best: cli.best.includes(m.move) }));
  check(`${what}: every move's value and the best moves equal owaredb probe --json`, JSON.stringify(s.rows) === JSON.stringify(want),
    `\n page ${JSON.stringify(s.rows)}\n  cli ${JSON.stringify(want)}`);
  const chips = {};
  for (const m of cli.moves) chips[`${s.turn}-${m.move - 1}`] = (cli.best.includes(m.move) ? '\u2605' : '') + signed(m.value);
  check(`${what}: the values on the board`, JSON.stringify(Object.entries(s.chips).sort()) === JSON.stringify(Object.entries(chips).sort()),
    `${JSON.stringify(s.chips)} vs ${JSON.stringify(chips)}`);
  // The side to move owns pits 0..5 of the position; each side's row in its sowing order.
  const p = cli.position.split(' ').map(Number);
  const mine = p.slice(0, 6);
  const theirs = p.slice(6);
  let ok = true;
  for (let i = 0; i < 6; ++i) {
    ok &&= s.pits[`${s.turn}-${i}`] === mine[i];
    ok &&= s.pits[`${other(s.turn)}-${i}`] === theirs[i];
  }
  check(`${what}: the board is drawn for ${s.turn} to move`, ok, JSON.stringify(s.pits));
  check(`${what}: the line of perfect play is shown`, s.pvSteps === Math.min(80, cli.pv ? cli.pv.length : s.pvSteps));
}

const nextOf = (cli) => (cli.pv.length > 1 ? cli.pv[1].position : cli.final_position);

const dir = tempDir('owaredb-browser-');
let server;
let browser;
const errors = [];
try {
  generate(bin, dir, 'abapa', 12);
  server = await startServer(bin, ['--dir', dir]);
  const probe = (position, pv = true, rules = 'abapa') => probeJson(bin, dir, rules, position, pv);

  browser = await launchChromium(chromium, { viewport: { width: 1280, height: 900 } });
  const page = await browser.context.newPage();
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    // A missing level is a 404, which Chromium reports on the console.
    if (m.type() === 'error' && !/status of 404/.test(m.text())) errors.push(`console: ${m.text()}`);
  });

  // 1. A 12-seed position from the URL.
  await page.goto(`${server.url}?rules=abapa&position=${encodeURIComponent(P0)}`);
  let s = await settle(page, P0, 'south');
  let cli = probe(P0);
  compare('start', s, cli);
  check('start: nothing captured yet', s.stores.south === 0 && s.stores.north === 0);
  const seen = [{ position: s.position, turn: s.turn, stores: s.stores }];

  // 2. Click the pit of the first move of the line.
  const stores = { south: 0, north: 0 };
  {
    const m = cli.pv[0];
    await page.click(`#board [data-pit="south-${m.move - 1}"]`);
    stores.south += m.captured;
    s = await settle(page, nextOf(cli), 'north');
    cli = probe(s.position);
    compare('after a click on a pit', s, cli);
    check('after a click: the stores', s.stores.south === stores.south && s.stores.north === stores.north, JSON.stringify(s.stores));
    seen.push({ position: s.position, turn: s.turn, stores: { ...s.stores } });
  }

  // 3. "Play the best move" for both sides, 10 plies.
  let plies = 0;
  for (; plies < 10 && !s.over; ++plies) {
    const mover = s.turn;
    const step = cli.pv[0];
    await page.click('#best');
    stores[mover] += step.captured;
    s = await settle(page, nextOf(cli), other(mover));
    cli = probe(s.position);
    compare(`ply ${plies + 1} (${mover} played ${step.move})`, s, cli);
    check(`ply ${plies + 1}: the stores`, s.stores.south === stores.south && s.stores.north === stores.north,
      `${JSON.stringify(s.stores)} vs ${JSON.stringify(stores)}`);
    seen.push({ position: s.position, turn: s.turn, stores: { ...s.stores } });
  }
  check('10 plies of best moves were played', plies === 10, plies);
  check('seeds are conserved (board + stores = 12)',
    s.position.split(' ').map(Number).reduce((a, b) => a + b) + s.stores.south + s.stores.north === 12);
  check('the URL follows the game', s.share.includes(`position=${encodeURIComponent(s.position).replace(/%20/g, '+')}`) &&
    (s.turn === 'south' || s.share.includes('turn=north')), s.share);

  // 4. Undo twice, redo once.
  await page.click('#undo');
  await page.click('#undo');
  const back2 = seen[seen.length - 3];
  s = await settle(page, back2.position, back2.turn);
  check('undo twice goes two plies back', JSON.stringify(s.stores) === JSON.stringify(back2.stores));
  compare('after undo', s, probe(s.position));
  await page.click('#redo');
  const back1 = seen[seen.length - 2];
  s = await settle(page, back1.position, back1.turn);
  check('redo goes one ply forward', JSON.stringify(s.stores) === JSON.stringify(back1.stores));

  // 5. The shareable URL opens the same position, side to move and captured seeds.
  {
    const other_page = await browser.context.newPage();
    await other_page.goto(s.share);
    const t = await settle(other_page, s.position, s.turn);
    check('the shared URL shows the same game state', JSON.stringify(t.stores) === JSON.stringify(s.stores) && JSON.stringify(t.rows) === JSON.stringify(s.rows));
    await other_page.close();
  }

  // 6. The computer plays perfectly for both sides.
  {
    const ply0 = s.ply;
    await page.check('#auto-north');
    await page.check('#auto-south');
    await page.waitForFunction((p) => Number(document.body.dataset.ply) >= p + 4 || document.body.dataset.over === '1', ply0, { timeout: 30000 });
    await page.uncheck('#auto-north');
    await page.uncheck('#auto-south');
    await page.waitForTimeout(700); // a move already under way finishes
    s = await settle(page, null, null);
    check('the computer played at least 4 plies', s.ply >= ply0 + 4 || s.over, `${ply0} -> ${s.ply}`);
    compare('after the computer played', s, probe(s.position));
    check('seeds are still conserved', s.position.split(' ').map(Number).reduce((a, b) => a + b) + s.stores.south + s.stores.north === 12);
  }
  await page.screenshot({ path: join(work, 'browser-test.png'), fullPage: true });

  // 7. Rules: awari has no levels here; back to abapa.
  await page.selectOption('#rules', 'awari');
  s = await settle(page, null, null, 'missing');
  check('awari without levels: the generate command', s.generate === `owaredb generate --rules awari --max-seeds ${s.position.split(' ').map(Number).reduce((a, b) => a + b)} --dir ${dir}`, s.generate);
  await page.selectOption('#rules', 'abapa');
  s = await settle(page, null, null);
  compare('back to abapa', s, probe(s.position));

  // 8. A missing level: which one, and the command that builds it.
  const P13 = '4 4 4 1 0 0 0 0 0 0 0 0';
  await page.goto(`${server.url}?rules=abapa&position=${encodeURIComponent(P13)}&turn=north&south=20&north=15`);
  s = await settle(page, P13, 'north', 'missing');
  check('missing level: the message', /level 13 .*missing/.test(s.message), s.message);
  check('missing level: the generate command', s.generate === `owaredb generate --rules abapa --max-seeds 13 --dir ${dir}`, s.generate);
  check('missing level: no move to play', !s.best && s.rows.length === 0);
  check('missing level: the board is still drawn', s.pits['north-0'] === 4 && s.pits['south-0'] === 0 && s.stores.south === 20 && s.stores.north === 15, JSON.stringify(s));
  await page.screenshot({ path: join(work, 'browser-test-missing.png') });

  // 9. Game over.
  await page.goto(`${server.url}?position=0+0+0+0+0+0+1+0+0+0+0+2&south=30&north=15`);
  s = await settle(page, '0 0 0 0 0 0 1 0 0 0 0 2', 'south');
  check('game over is shown', s.over && /Game over: South has no move.*Final: South 30, North 18/.test(s.message), s.message);

  // 10. A bad position in the URL.
  await page.goto(`${server.url}?position=1+2+x`);
  s = await settle(page, null, null, 'error');
  check('a bad position in the URL is explained', /invalid position/.test(s.message), s.message);

  await page.close();
  await browser.close();
  browser = null;

  // 11. A phone: the page fits the width (no sideways scrolling) and a tap plays a move.
  browser = await launchChromium(chromium, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const phone = await browser.context.newPage();
  phone.on('pageerror', (e) => errors.push(`phone page error: ${e.message}`));
  await phone.goto(`${server.url}?rules=abapa&position=${encodeURIComponent(P0)}`);
  s = await settle(phone, P0, 'south');
  const fit = await phone.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth, board: document.getElementById('board').getBoundingClientRect().width }));
  check('phone: no sideways scrolling', fit.scroll <= fit.width, JSON.stringify(fit));
  check('phone: the board uses the width', fit.board >= 300 && fit.board <= fit.width, JSON.stringify(fit));
  cli = probe(P0);
  await phone.tap(`#board [data-pit="south-${cli.pv[0].move - 1}"]`);
  s = await settle(phone, nextOf(cli), 'north');
  compare('phone: after a tap', s, probe(s.position));
  await phone.screenshot({ path: join(work, 'browser-test-phone.png'), fullPage: true });

  check('no script errors', errors.length === 0, errors.join('\n'));
  console.log(`screenshots in ${work}`);
} finally {
  if (browser) await browser.close().catch(() => {});
  if (server) {
    const r = await server.stop('SIGTERM');
    check('the server stops cleanly', r.code === 0, JSON.stringify(r));
  }
  removeDir(dir);
}
process.exit(summary('browser_test'));
