// owaredb serve's page in a real browser: Debian's Chromium driven by playwright-core.
//   node browser_test.mjs /path/to/owaredb WORKDIR      (screenshots go to WORKDIR)
// Builds abapa levels 0..12, starts `owaredb serve`, loads a 12-seed position and checks
// what the page shows (every move's value, the best moves, the board drawn for the side
// to move, the captured seeds) against `owaredb probe --json` after a click on a pit and
// after each of 10 plies of "play the best move"; then undo/redo, the shareable URL, the
// computer playing both sides, the rules switch, game over, positions whose levels are
// missing (playable, marked, valued where a capture reaches the levels present, the
// `owaredb generate` commands; the opening and "New game"), the search there (#50: its
// values in the table marked as its own, its move played by the button and the computer,
// a busy server's 503 shown and asked again, a stale answer dropped), links that cannot be (refused,
// not clamped), moves coloured by their result under the score with the bound files'
// certainty, a click on the line of perfect play, the game record (its link, pasted back),
// the phone layout (no sideways scrolling), and a directory of a board of 4 pits a side
// (#28: the board drawn with 4 pits, its first position, best moves played, its refusals).
import { chromium } from 'playwright-core';
import { basename, join } from 'node:path';
import { check, generate, launchChromium, owaredb, probeJson, removeDir, startServer, summary, tempDir } from './common.mjs';

const [bin, work] = process.argv.slice(2);
if (!bin || !work) {
  console.error('usage: node browser_test.mjs /path/to/owaredb WORKDIR');
  process.exit(2);
}

const P0 = '2 1 1 1 1 1 1 0 2 1 0 1'; // 12 seeds, worth +6, 48 plies of perfect play
const other = (side) => (side === 'south' ? 'north' : 'south');
const half = (x) => (Number.isInteger(x) ? String(x) : `${Math.floor(x)}\u00bd`);
// A final margin (the mover's seeds minus the opponent's) as players say it (#50).
const words = (margin) => (margin > 0 ? `wins by ${margin}` : margin < 0 ? `loses by ${-margin}` : 'draw');
const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `\u2212${-v}` : '0');

// Everything the page shows that the checks compare.
function shown(page) {
  return page.evaluate(() => {
    const d = document.body.dataset;
    const rows = [...document.querySelectorAll('#moves tbody tr')].map((tr) => ({
      move: Number(tr.dataset.move),
      captured: Number(tr.dataset.captured),
      value: tr.dataset.value === undefined ? null : Number(tr.dataset.value),
      best: tr.classList.contains('best'),
    }));
    const results = [...document.querySelectorAll('#moves tbody tr')].map((tr) => ({
      move: Number(tr.dataset.move),
      result: tr.dataset.result,
      written: tr.dataset.written ?? null,
      text: tr.querySelector('td.result').textContent,
      title: tr.title,
    }));
    const chipClass = {};
    for (const g of document.querySelectorAll('#board [data-pit]')) {
      const chip = g.querySelector('rect.chip');
      if (chip) chipClass[g.dataset.pit] = chip.getAttribute('class').replace('chip ', '');
    }
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
      messageClass: message.className,
      generate: document.getElementById('generate')?.textContent ?? '',
      night: document.getElementById('generate-night')?.textContent ?? '',
      note: document.getElementById('note').hidden ? '' : document.getElementById('note').textContent,
      value: document.getElementById('value').textContent,
      valueWords: document.querySelector('#value strong')?.textContent ?? '',
      flipped: d.flipped === '1',
      results,
      chipClass,
      record: document.getElementById('record').value,
      gameLink: document.getElementById('game-link').href,
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

// The search's part of the page (#50) once its request is `status` (pending, done, busy,
// failed): its box, its values in the moves table, the buttons that play its move.
async function searched(page, status) {
  await page.waitForFunction((st) => document.body.dataset.search === st && document.body.dataset.state !== 'loading', status, { timeout: 20000 });
  return page.evaluate(() => {
    const box = document.getElementById('search');
    const best = document.getElementById('best');
    return {
      shown: !box.hidden,
      kind: box.dataset.kind,
      text: box.textContent,
      legend: document.getElementById('search-legend').hidden ? '' : document.getElementById('search-legend').textContent,
      button: { on: !best.disabled, text: best.textContent, title: best.title },
      auto: document.getElementById('auto-label').textContent,
      rows: [...document.querySelectorAll('#moves tbody tr')].map((tr) => ({
        move: Number(tr.dataset.move),
        value: tr.dataset.searchValue === undefined ? null : Number(tr.dataset.searchValue),
        bound: tr.dataset.searchBound,
        proven: tr.dataset.searchProven,
        db: tr.dataset.value,
        searched: tr.classList.contains('searched'),
        searchBest: tr.classList.contains('search-best'),
        best: tr.classList.contains('best'),
        cell: tr.querySelector('td.v').textContent,
        result: tr.querySelector('td.result').textContent,
      })),
    };
  });
}

// Moves as the page lists them (#50): best first, by value; those without one after, in pit
// order; equal values in pit order.
const ranked = (rows) => rows.slice().sort((x, y) => (x.value === null) - (y.value === null) ||
  (x.value === null ? 0 : y.value - x.value) || x.move - y.move);

// The page against `owaredb probe --json` of the position it shows, on a board of P pits a
// side (6 unless said).
function compare(what, s, cli, P = 6) {
  check(`${what}: the position`, s.position === cli.position, `${s.position} vs ${cli.position}`);
  const want = ranked(cli.moves.map((m) => ({ move: m.move, captured: m.captured, value: m.value, best: cli.best.includes(m.move) })));
  check(`${what}: every move's value and the best moves equal owaredb probe --json, best first`, JSON.stringify(s.rows) === JSON.stringify(want),
    `\n page ${JSON.stringify(s.rows)}\n  cli ${JSON.stringify(want)}`);
  const chips = {};
  for (const m of cli.moves) chips[`${s.turn}-${m.move - 1}`] = (cli.best.includes(m.move) ? '\u2605' : '') + signed(m.value);
  check(`${what}: the values on the board`, JSON.stringify(Object.entries(s.chips).sort()) === JSON.stringify(Object.entries(chips).sort()),
    `${JSON.stringify(s.chips)} vs ${JSON.stringify(chips)}`);
  // The side to move owns pits 0..5 (0..P-1) of the position; each side's row in its sowing
  // order, and no other pit drawn.
  const p = cli.position.split(' ').map(Number);
  const mine = p.slice(0, P);
  const theirs = p.slice(P);
  let ok = Object.keys(s.pits).length === 2 * P;
  for (let i = 0; i < P; ++i) {
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
  owaredb(bin, ['generate', '--bounds', '--rules', 'abapa', '--max-seeds', '12', '--dir', dir, '--threads', '2']);
  server = await startServer(bin, ['--dir', dir]);
  const probe = (position, pv = true, rules = 'abapa') => probeJson(bin, dir, rules, position, pv);

  browser = await launchChromium(chromium, { viewport: { width: 1280, height: 900 } });
  const page = await browser.context.newPage();
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    // A missing level is a 404, a busy search (made up in 8e) a 503: Chromium reports both
    // on the console.
    if (m.type() === 'error' && !/status of (404|503)/.test(m.text())) errors.push(`console: ${m.text()}`);
  });

  // 1. A 12-seed position from the URL.
  await page.goto(`${server.url}?rules=abapa&position=${encodeURIComponent(P0)}`);
  let s = await settle(page, P0, 'south');
  let cli = probe(P0);
  compare('start', s, cli);
  // No counts in the link: the 36 seeds off the board split evenly, and the page says so.
  check('start: the captured seeds, not given, split evenly', s.stores.south === 18 && s.stores.north === 18, JSON.stringify(s.stores));
  check('start: the page says how it took them', /not given: taken as South 18, North 18/.test(s.note), s.note);
  const seen = [{ position: s.position, turn: s.turn, stores: s.stores }];

  // 2. Click the pit of the first move of the line.
  const stores = { south: 18, north: 18 };
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
  check('seeds are conserved (board + stores = 48)',
    s.position.split(' ').map(Number).reduce((a, b) => a + b) + s.stores.south + s.stores.north === 48);
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
    check('seeds are still conserved', s.position.split(' ').map(Number).reduce((a, b) => a + b) + s.stores.south + s.stores.north === 48);
  }
  await page.screenshot({ path: join(work, 'browser-test.png'), fullPage: true });

  // 7. Rules: awari has no levels here; back to abapa.
  const menu = await page.$$eval('#rules option', (os) => os.map((o) => `${o.value}=${o.textContent}`).join('; '));
  check('the rules menu lists the server\'s rule sets, each said as the server says it',
    menu === 'abapa=abapa: Oware, the rules of the seeds; awari=awari: computer Awari (Romein & Bal)', menu);
  await page.selectOption('#rules', 'awari');
  s = await settle(page, null, null, 'missing');
  check('awari without levels: the generate command', s.generate === `owaredb generate --rules awari --max-seeds ${s.position.split(' ').map(Number).reduce((a, b) => a + b)} --dir ${basename(dir)}`, s.generate);
  await page.selectOption('#rules', 'abapa');
  s = await settle(page, null, null);
  compare('back to abapa', s, probe(s.position));

  // 8. A missing level: which one, and the command that builds it. What the databases give
  // alone: the server's search is kept out (a server without it answers 404) until 8c.
  await page.route('**/api/search?*', (route) => route.fulfill({ status: 404, json: { error: 'not found' } }));
  const P13 = '4 4 4 1 0 0 0 0 0 0 0 0';
  await page.goto(`${server.url}?rules=abapa&position=${encodeURIComponent(P13)}&turn=north&south=20&north=15`);
  s = await settle(page, P13, 'north', 'missing');
  check('missing level: the message', /needs the abapa level 13, which is missing/.test(s.message), s.message);
  check('missing level: the generate command', s.generate === `owaredb generate --rules abapa --max-seeds 13 --dir ${basename(dir)}`, s.generate);
  // Regression (issue #29): a missing level was a red box and nothing could be played.
  check('missing level: not an error box', !/error/.test(s.messageClass) && /info/.test(s.messageClass), s.messageClass);
  check('missing level: its move is playable, marked not in the databases',
    JSON.stringify(s.rows) === JSON.stringify([{ move: 3, captured: 0, value: null, best: false }]) && s.chips['north-2'] === '?' &&
    s.results[0].text === 'not in the databases' && !s.best, JSON.stringify(s));
  check('missing level: the board is still drawn', s.pits['north-0'] === 4 && s.pits['south-0'] === 0 && s.stores.south === 20 && s.stores.north === 15, JSON.stringify(s));
  check('missing level: no night command for a small level', s.night === '', s.night);
  await page.screenshot({ path: join(work, 'browser-test-missing.png') });
  await page.click('#board [data-pit="north-2"]');
  s = await settle(page, '1 0 0 0 0 0 4 4 0 2 1 1', 'south', 'missing');
  check('missing level: the move was played', s.ply === 1 && s.stores.south === 20 && s.stores.north === 15, JSON.stringify(s));

  // 8b. A capture into the levels present is valued, and once played the values are back.
  {
    const P = '1 0 0 0 0 2 1 1 3 3 2 0'; // 13 seeds; move 6 captures 4
    await page.goto(`${server.url}?position=${encodeURIComponent(P)}&south=20&north=15`);
    s = await settle(page, P, 'south', 'missing');
    const child = probe('0 0 3 3 2 0 1 0 0 0 0 0');
    const v6 = 4 - child.value;
    check('partly valued: move 6 valued and listed first, move 1 unknown', JSON.stringify(s.rows) === JSON.stringify([
      { move: 6, captured: 4, value: v6, best: false }, { move: 1, captured: 0, value: null, best: false }]), JSON.stringify(s.rows));
    check('partly valued: the message counts the valued move', /1 valued/.test(s.message), s.message);
    await page.click('#board [data-pit="south-5"]');
    s = await settle(page, child.position, 'north');
    compare('values are back once the game reaches the levels present', s, probe(s.position));
    check('the capture was counted', s.stores.south === 24 && s.stores.north === 15, JSON.stringify(s.stores));
  }
  await page.unroute('**/api/search?*');

  const START = '4 4 4 4 4 4 4 4 4 4 4 4';
  // 8c. Play from the opening (levels 13..48 missing): playable, and "New game" too.
  // The page asks GET /api/search for a suggestion there (#50); its answer is made up here
  // (the search is not this test's): the page must show it apart, named as a search's.
  {
    const searched = [];
    await page.route('**/api/search?*', (route) => {
      searched.push(new URL(route.request().url()).searchParams.get('position'));
      return route.fulfill({ json: { status: 'not_available', search: { kind: 'estimate', move: 3, value: 2, depth: 7, pv: [3], moves: [] } } });
    });
    await page.goto(server.url);
    s = await settle(page, START, 'south', 'missing');
    await page.waitForSelector('#search:not([hidden])', { timeout: 10000 });
    const hint = await page.evaluate(() => ({ text: document.getElementById('search').textContent, kind: document.getElementById('search').dataset.kind }));
    check('opening: a search suggestion, named as an estimate', hint.kind === 'estimate' && searched[0] === START &&
      hint.text === 'Search estimate, not a database value: S3, value +2 for South (depth 7).', JSON.stringify(hint));
    check('opening: the suggestion is not a database value', (await shown(page)).rows.every((r) => r.value === null));
    const button = await page.evaluate(() => ({ on: !document.getElementById('best').disabled, text: document.getElementById('best').textContent }));
    check('opening: the search\'s move can be played (#50)', button.on && button.text === 'Play the search\'s move', JSON.stringify(button));
    await page.unroute('**/api/search?*');
    check('opening: every move playable, none valued', s.rows.length === 6 && s.rows.every((r) => r.value === null) &&
      Object.values(s.chips).every((c) => c === '?'), JSON.stringify(s.rows));
    check('opening: which levels are missing', /levels 13\u201348/.test(s.message) && /down to 12 seeds/.test(s.message), s.message);
    check('opening: the command for the position', s.generate === `owaredb generate --rules abapa --max-seeds 48 --dir ${basename(dir)}`, s.generate);
    check('opening: and one a night builds', s.night === `owaredb generate --rules abapa --max-seeds 28 --dir ${basename(dir)}` &&
      /203\.6 billion positions/.test(s.message), `${s.night} / ${s.message}`);
    await page.click('#board [data-pit="south-0"]');
    s = await settle(page, '4 4 4 4 4 4 0 5 5 5 5 4', 'north', 'missing');
    check('opening: a move was played', s.ply === 1 && s.record === 'S1', `${s.ply} ${s.record}`);
    await page.click('#new-game');
    s = await settle(page, START, 'south', 'missing');
    check('"New game" returns to a playable opening', s.ply === 0 && s.rows.length === 6 && s.stores.south === 0 && s.stores.north === 0, JSON.stringify(s));
  }

  // 8d. From the opening, the search's answer (#50): its values in the moves table, marked
  // as the search's and never as database values; "Play the search's move" and the
  // computer play its move, and say it is a search's, not perfect play. The answers are the
  // server's own, recorded on their way.
  {
    const answers = new Map();
    await page.route('**/api/search?*', async (route) => {
      try {
        const res = await route.fetch();
        const body = await res.json();
        if (res.status() === 200) answers.set(new URL(route.request().url()).searchParams.get('position'), body.search);
        await route.fulfill({ response: res, json: body });
      } catch (e) {
        // the page gave the request up (a newer position): nothing to answer
      }
    });
    await page.goto(server.url);
    await settle(page, START, 'south', 'missing');
    let t = await searched(page, 'done');
    const want = answers.get(START);
    const rows = want.moves.map((m) => ({ move: m.move, value: m.value, bound: m.bound, proven: m.proven ? '1' : '0' })).sort((x, y) => x.move - y.move);
    check('search: the table shows the search\'s value of every move, marked as such', t.kind === 'estimate' &&
      JSON.stringify(t.rows.slice().sort((x, y) => x.move - y.move).map(({ move, value, bound, proven }) => ({ move, value, bound, proven }))) === JSON.stringify(rows) &&
      t.rows.every((r) => r.searched && r.db === undefined && /^[\u2248\u2264]/.test(r.cell) && /\u00b7\u00a0estimate$/.test(r.result)),
      `${JSON.stringify(t.rows)} vs ${JSON.stringify(want.moves)}`);
    check('search: its move first, marked as the search\'s', t.rows[0].move === want.move && t.rows[0].searchBest && t.rows.filter((r) => r.searchBest).length === 1 &&
      !t.rows.some((r) => r.best), JSON.stringify(t.rows));
    check('search: a legend says they are search values, not database values', /search estimate\), not database values/.test(t.legend), t.legend);
    const line = await page.evaluate(() => document.getElementById('pv').textContent);
    const moves = want.pv.map((m, i) => `${i % 2 ? 'N' : 'S'}${m}`).join(' ');
    check('search: its line, named as the search\'s', line === `not in the databases; the search's line (a search estimate): ${moves}`, `${line} vs ${moves}`);
    check('search: the buttons play the search\'s move and never say "perfect"', t.button.on && t.button.text === 'Play the search\'s move' &&
      !/perfect/i.test(t.button.text + t.button.title + t.auto) && t.auto === 'Search estimate plays for', JSON.stringify(t));
    await page.click('#best');
    await page.waitForFunction(() => document.body.dataset.ply === '1' && document.body.dataset.state === 'missing', null, { timeout: 20000 });
    s = await shown(page);
    check('search: "Play the search\'s move" played it', s.record === `S${want.move}`, s.record);
    // The computer plays North's move from the search's answer for the position reached.
    const p1 = s.position;
    await page.check('#auto-north');
    await page.waitForFunction(() => document.body.dataset.ply === '2', null, { timeout: 20000 });
    await page.uncheck('#auto-north');
    s = await shown(page);
    check('search: the computer played North the search\'s move', answers.has(p1) && s.record === `S${want.move} N${answers.get(p1).move}`, s.record);
    await page.unroute('**/api/search?*');
  }

  // 8e. A busy server (503 with Retry-After: more searches than it runs at once) is said so,
  // asked again after the wait, and the page plays on meanwhile; once it answers, the
  // search's move is there.
  {
    let asked = 0;
    await page.route('**/api/search?*', (route) => {
      asked += 1;
      return route.fulfill({ status: 503, headers: { 'Retry-After': '1' }, json: { error: 'busy: 4 searches are running, the most at once; try again' } });
    });
    await page.goto(server.url);
    await settle(page, START, 'south', 'missing');
    let t = await searched(page, 'busy');
    check('busy: the 503 is shown, with when it is asked again', /^Search busy: 4 searches are running, the most at once; try again\. Asking again in 1 s\.$/.test(t.text) && t.shown,
      JSON.stringify(t));
    s = await shown(page);
    check('busy: the moves are still there and playable, none valued', s.rows.length === 6 && s.rows.every((r) => r.value === null) && !t.button.on,
      JSON.stringify(s.rows));
    await page.unroute('**/api/search?*');
    t = await searched(page, 'done');
    check('busy: asked again after Retry-After, and then answered', asked >= 1 && t.kind === 'estimate' && t.button.on, `${asked} ${JSON.stringify(t)}`);
  }

  // 8f. A search's answer that comes after the position changed is dropped: the answer for
  // the opening is held back until a move has been played and the new position's answer
  // shown; the page shows that one only, and the request for the opening was given up.
  {
    let release;
    const held = new Promise((r) => (release = r));
    const fake = (move, value) => ({ status: 'not_available', search: { kind: 'estimate', move, value, depth: 3, pv: [move],
      moves: [1, 2, 3, 4, 5, 6].map((m) => ({ move: m, captured: 0, value: m === move ? value : value - 1, bound: m === move ? 'exact' : 'at_most', proven: false })) } });
    const failed = [];
    const onFailed = (r) => r.url().includes('/api/search') && failed.push(new URL(r.url()).searchParams.get('position'));
    page.on('requestfailed', onFailed);
    await page.route('**/api/search?*', async (route) => {
      const position = new URL(route.request().url()).searchParams.get('position');
      if (position !== START) return route.fulfill({ json: fake(2, -1) });
      await held;
      return route.fulfill({ json: fake(3, 7) }).catch(() => {});
    });
    await page.goto(server.url);
    await settle(page, START, 'south', 'missing');
    await page.click('#board [data-pit="south-0"]');
    await settle(page, '4 4 4 4 4 4 0 5 5 5 5 4', 'north', 'missing');
    await searched(page, 'done');
    release();
    await page.waitForTimeout(300);
    const t = await searched(page, 'done');
    page.off('requestfailed', onFailed);
    await page.unroute('**/api/search?*');
    check('stale: the new position\'s answer shown, the old one dropped', t.text === 'Search estimate, not a database value: N2, value \u22121 for North (depth 3).' &&
      t.rows.every((r) => r.value === (r.move === 2 ? -1 : -2)) && t.rows[0].move === 2, JSON.stringify(t));
    check('stale: the request for the old position was given up', failed.includes(START), JSON.stringify(failed));
    check('stale: nothing was played from the old answer', (await shown(page)).ply === 1);
  }

  // 9. Game over.
  await page.goto(`${server.url}?position=0+0+0+0+0+0+1+0+0+0+0+2&south=30&north=15`);
  s = await settle(page, '0 0 0 0 0 0 1 0 0 0 0 2', 'south');
  check('game over is shown', s.over && /Game over: South has no move.*Final: South 30, North 18/.test(s.message), s.message);

  // 10. A bad position in the URL.
  await page.goto(`${server.url}?position=1+2+x`);
  s = await settle(page, null, null, 'error');
  check('a bad position in the URL is explained', /invalid position/.test(s.message), s.message);

  // 11. Impossible links are refused with a message, not clamped (issue #29: south=99 and
  // north=-3 showed "South 53, North 0").
  for (const [query, why] of [
    ['south=99&north=-3', /invalid captured seeds: South captured '99'/],
    ['south=20&north=20', /South 20 \+ North 20 captured \+ 12 on the board = 52 seeds, but a game has 48/],
    ['south=40', /South captured 40 \+ 12 on the board is more than the 48/],
    ['south=1.5', /South captured '1\.5'/],
    ['turn=east', /invalid turn 'east'/],
  ]) {
    await page.goto(`${server.url}?position=${encodeURIComponent(P0)}&${query}`);
    s = await settle(page, null, null, 'error');
    check(`link ${query}: refused, saying why`, why.test(s.message) && /cannot be shown/.test(s.message), s.message);
    check(`link ${query}: nothing clamped (the start position shown)`, s.position === '4 4 4 4 4 4 4 4 4 4 4 4' && s.stores.south === 0 && s.stores.north === 0,
      JSON.stringify(s.stores));
  }
  await page.goto(`${server.url}?position=${encodeURIComponent(P0)}&south=20`);
  s = await settle(page, P0, 'south');
  check('link with one count: the other follows from the board', s.stores.south === 20 && s.stores.north === 16 && s.note === '', JSON.stringify(s.stores));
  // The form checks the same way.
  await page.fill('#cap-south', '30');
  await page.click('#set');
  s = await settle(page, null, null, 'error');
  check('the form refuses counts that do not add up', /Position not set: South 30 \+ North 16 captured \+ 12 on the board = 58/.test(s.message), s.message);

  // 12. Colours by result, not by margin: South 15, North 21, 12 on the board. The best
  // move (+6) only draws (15 + 9 = 21 + 3); every other move loses.
  {
    await page.goto(`${server.url}?position=${encodeURIComponent(P0)}&south=15&north=21`);
    s = await settle(page, P0, 'south');
    const want = probe(P0, false);
    let ok = true;
    for (const m of want.moves) {
      const mine = 15 + (12 + m.value) / 2;
      const theirs = 21 + (12 - m.value) / 2;
      const result = mine > theirs ? 'win' : mine < theirs ? 'loss' : 'draw';
      const row = s.results.find((r) => r.move === m.move);
      ok &&= row.result === result && s.chipClass[`south-${m.move - 1}`] === result && row.text.startsWith(words(mine - theirs)) &&
        row.title.includes(`final score South ${half(mine)}, North ${half(theirs)}`);
    }
    check('each move coloured by its result under the score', ok, JSON.stringify(s.results));
    const six = s.results.find((r) => r.move === 6);
    check('the +6 move is a draw (was green)', six.result === 'draw' && s.chipClass['south-5'] === 'draw' && s.chips['south-5'] === '\u2605+6', JSON.stringify(six));
    check('the value line names the result', s.valueWords === 'Draw' && /final score South 24, North 24/.test(s.value), s.value);
    // Bound files (generate --bounds): whether the rules as written make it certain.
    const b = JSON.parse(owaredb(bin, ['probe', '--dir', dir, '--json', '--scores', '15', '21', P0]));
    check('bounds: the CLI says the position is a certain draw', b.verdict === 'draw', JSON.stringify(b));
    check('bounds: the best move\'s draw is certain', six.written === 'draw' && /certain/.test(six.text), JSON.stringify(six));
    let agree = true;
    for (const m of b.moves) {
      const mine = 15 + m.gM;
      const theirs = 21 + m.gN;
      const w = 2 * mine > 48 ? 'win' : 2 * theirs > 48 ? 'loss' : 2 * mine === 48 && 2 * theirs === 48 ? 'draw' : 'repetition';
      agree &&= s.results.find((r) => r.move === m.move).written === w;
    }
    check('bounds: every move certain or decided by repetition as gM and gN say', agree, JSON.stringify(s.results));
    check('bounds: some move is decided by repetition', s.results.some((r) => r.written === 'repetition' && /by repetition/.test(r.text)), JSON.stringify(s.results));
    check('bounds: the value line says the draw is certain', /that draw is certain/.test(s.value), s.value);
  }

  // 12b. Results in words from the mover's seat (#50: "South 22\u00bd, North 25\u00bd" was shown
  // where players expect "loses by 3"); the exact counts, halves and all, in the tooltip.
  // North to move, North 16, South 20: N5 is worth -1, 21\u00bd against 26\u00bd.
  {
    const PH = '1 1 2 1 3 1 0 0 0 1 0 2';
    await page.goto(`${server.url}?position=${encodeURIComponent(PH)}&turn=north&south=20&north=16`);
    s = await settle(page, PH, 'north');
    const want = probe(PH, false);
    const margin = (v) => 16 + (12 + v) / 2 - (20 + (12 - v) / 2);
    const texts = s.results.map((r) => r.text.split(' \u00b7 ')[0]);
    check('words: each move\'s result as North sees it', JSON.stringify(texts) ===
      JSON.stringify(s.rows.map((r) => words(margin(want.moves.find((m) => m.move === r.move).value)))), JSON.stringify(s.results));
    check('words: no halves in the results or the value line', !s.results.some((r) => r.text.includes('\u00bd')) &&
      !s.valueWords.includes('\u00bd'), JSON.stringify(s.results));
    check('words: the position', s.valueWords === `North ${words(margin(want.value))}`, s.valueWords);
    const n5 = s.results.find((r) => r.move === 5);
    check('words: the exact counts kept in the tooltip', n5.text.startsWith('loses by 5') && n5.title.includes('final score North 21\u00bd, South 26\u00bd'), JSON.stringify(n5));
  }

  // 12c. The position after a move is the server's (children=1), not the page's own sowing
  // (#50: app.js held a second copy of the rules). The answer for P0 is altered on its way:
  // the first move's child turned round; the page must go where the server says.
  {
    const first = probe(P0, false).moves[0];
    let real = null;
    let fake = null;
    await page.route('**/api/probe?*', async (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('children', '1');
      const res = await route.fetch({ url: url.href });
      const body = await res.json();
      if (url.searchParams.get('position') === P0) {
        for (const m of body.moves ?? []) {
          if (m.move !== first.move || !m.child) continue;
          real = m.child;
          fake = m.child.split(' ').reverse().join(' ');
          m.child = fake;
        }
      }
      await route.fulfill({ response: res, json: body });
    });
    await page.goto(`${server.url}?position=${encodeURIComponent(P0)}&south=18&north=18`);
    await settle(page, P0, 'south');
    await page.click(`#board [data-pit="south-${first.move - 1}"]`);
    await page.waitForFunction(() => document.body.dataset.ply === '1' && document.body.dataset.state !== 'loading', null, { timeout: 20000 });
    s = await shown(page);
    await page.unroute('**/api/probe?*');
    check('children: the server gave one for the move', typeof real === 'string' && real !== fake, `${real} / ${fake}`);
    check('children: the page plays to the position the server gives', s.position === fake && s.turn === 'north', `${s.position} (server ${fake}, rules ${real})`);
  }

  // 12d. Board flip (#50): North at the bottom, from North's seat; remembered.
  {
    await page.goto(`${server.url}?position=${encodeURIComponent(P0)}&south=18&north=18`);
    s = await settle(page, P0, 'south');
    const geometry = () => page.evaluate(() => {
      const pit = (id) => document.querySelector(`#board [data-pit="${id}"] circle.hole`).getBoundingClientRect();
      const store = (id) => document.querySelector(`#board [data-store="${id}"] rect`).getBoundingClientRect().x;
      const [s0, s5, n0, n5] = ['south-0', 'south-5', 'north-0', 'north-5'].map(pit);
      return { south: s0.y, north: n0.y, southLeftToRight: s0.x < s5.x, northLeftToRight: n0.x < n5.x, southStore: store('south'), northStore: store('north') };
    });
    const upright = (g) => g.south > g.north && g.southLeftToRight && !g.northLeftToRight && g.southStore > g.northStore;
    const turned = (g) => g.north > g.south && g.northLeftToRight && !g.southLeftToRight && g.northStore > g.southStore;
    let g = await geometry();
    check('flip: South at the bottom to start with', !s.flipped && upright(g), JSON.stringify(g));
    await page.click('#flip');
    g = await geometry();
    check('flip: North at the bottom, each side in its sowing order, stores on their owners\' right', (await shown(page)).flipped && turned(g), JSON.stringify(g));
    await page.reload();
    s = await settle(page, P0, 'south');
    g = await geometry();
    check('flip: remembered after a reload', s.flipped && turned(g), JSON.stringify(g));
    const m = probe(P0).pv[0];
    await page.click(`#board [data-pit="south-${m.move - 1}"]`);
    s = await settle(page, nextOf(probe(P0)), 'north');
    check('flip: a flipped pit plays its move', s.ply === 1 && s.flipped, JSON.stringify(s.rows));
    await page.click('#flip');
    check('flip: back upright', upright(await geometry()) && !(await shown(page)).flipped);
  }

  // 13. A click on the principal variation plays up to it; the game record replays.
  {
    await page.goto(`${server.url}?position=${encodeURIComponent(P0)}&south=18&north=18`);
    s = await settle(page, P0, 'south');
    const line = probe(P0).pv;
    await page.click('#pv .step[data-step="3"]');
    s = await settle(page, line[4].position, 'south');
    check('a click on step 4 of the line plays its 4 moves', s.ply === 4, s.ply);
    const rec = line.slice(0, 4).map((st, i) => `${i % 2 ? 'N' : 'S'}${st.move}`).join(' ');
    check('the game record lists them', s.record === rec, `${s.record} vs ${rec}`);
    check('the game link holds the first position and the moves', s.gameLink.includes(`moves=${encodeURIComponent(rec).replace(/%20/g, '+')}`) &&
      s.gameLink.includes(`position=${encodeURIComponent(P0).replace(/%20/g, '+')}`), s.gameLink);
    const other_page = await browser.context.newPage();
    await other_page.goto(s.gameLink);
    const t = await settle(other_page, line[4].position, 'south');
    check('the game link replays the game', t.ply === 4 && t.record === rec && JSON.stringify(t.stores) === JSON.stringify(s.stores), JSON.stringify(t));
    await other_page.click('#undo');
    const u = await settle(other_page, line[3].position, 'north');
    check('a replayed game can be undone move by move', u.ply === 3, u.ply);
    await other_page.close();
    // Pasted back: numbers and side letters optional.
    await page.fill('#record', `1. ${line[0].move} ${line[1].move} 2. S${line[2].move}`);
    await page.click('#load-record');
    s = await settle(page, line[3].position, 'north');
    check('a pasted record is replayed', s.ply === 3 && s.record === rec.split(' ').slice(0, 3).join(' '), `${s.ply} ${s.record}`);
    await page.fill('#record', `S${line[0].move} S1`);
    await page.click('#load-record');
    s = await settle(page, null, null, 'error');
    check('a wrong record says which move and why, keeping the moves before', /move 2 \(S1\): North is to move/.test(s.message) && s.ply === 1, `${s.ply} ${s.message}`);
    await page.fill('#record', 'S7');
    await page.click('#load-record');
    s = await settle(page, null, null, 'error');
    check('a record that is not moves is refused', /'S7' is not a move/.test(s.message), s.message);
  }

  // 14. A directory of a board of 4 pits a side (#28): the page starts from its first
  // position (1 a pit: 8 seeds, the game its levels 0..11 cover), draws 4 pits a side, and
  // plays best moves as `owaredb probe` on that directory says.
  {
    const p4 = join(dir, 'p4');
    owaredb(bin, ['generate', '--pits', '4', '--rules', 'abapa', '--max-seeds', '11', '--dir', p4, '--threads', '2']);
    const board = await startServer(bin, ['--dir', p4]);
    const probe4 = (position) => probeJson(bin, p4, 'abapa', position, true);
    const page4 = await browser.context.newPage();
    page4.on('pageerror', (e) => errors.push(`4-pit page error: ${e.message}`));
    await page4.goto(board.url);
    let t = await settle(page4, '1 1 1 1 1 1 1 1', 'south');
    let c = probe4(t.position);
    compare('4 pits: the first position', t, c, 4);
    check('4 pits: a new game, nothing captured', t.stores.south === 0 && t.stores.north === 0, JSON.stringify(t.stores));
    const taken = { south: 0, north: 0 };
    let ply = 0;
    for (; ply < 6 && !t.over; ++ply) {
      const mover = t.turn;
      const step = c.pv[0];
      await page4.click('#best');
      taken[mover] += step.captured;
      t = await settle(page4, nextOf(c), other(mover));
      c = probe4(t.position);
      compare(`4 pits: ply ${ply + 1} (${mover} played ${step.move})`, t, c, 4);
      check(`4 pits: ply ${ply + 1}: the stores`, t.stores.south === taken.south && t.stores.north === taken.north,
        `${JSON.stringify(t.stores)} vs ${JSON.stringify(taken)}`);
    }
    check('4 pits: seeds are conserved (board + stores = 8)',
      t.position.split(' ').map(Number).reduce((a, b) => a + b) + t.stores.south + t.stores.north === 8);
    await page4.screenshot({ path: join(work, 'browser-test-4-pits.png') });
    await page4.goto(`${board.url}?position=${encodeURIComponent('1 1 1 1 1 1 1 1 1 1 1 1')}`);
    t = await settle(page4, null, null, 'error');
    check('4 pits: a link of 12 counts is refused', /invalid position '1 1 1 1 1 1 1 1 1 1 1 1': 8 counts, at most 8 seeds/.test(t.message), t.message);
    await page4.goto(board.url);
    await settle(page4, '1 1 1 1 1 1 1 1', 'south');
    await page4.fill('#record', 'S5');
    await page4.click('#load-record');
    t = await settle(page4, null, null, 'error');
    check('4 pits: a move past the fourth pit is refused', /'S5' is not a move \(S1..S4, N1..N4, or 1..4\)/.test(t.message), t.message);
    await page4.close();
    const r = await board.stop('SIGTERM');
    check('the 4-pit server stops cleanly', r.code === 0, JSON.stringify(r));
  }

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
  // Long results ("loses by 4 \u00b7 by repetition") still fit the width.
  await phone.goto(`${server.url}?position=${encodeURIComponent('1 1 2 1 3 1 0 0 0 1 0 2')}&turn=north&south=20&north=16`);
  await settle(phone, '1 1 2 1 3 1 0 0 0 1 0 2', 'north');
  const wide = await phone.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth,
    table: document.getElementById('moves').getBoundingClientRect().right, panel: document.querySelector('.side-panel').getBoundingClientRect().right }));
  check('phone: the moves with long results fit the width', wide.scroll <= wide.width && wide.table <= wide.panel, JSON.stringify(wide));
  // The opening, its levels missing (#50: the box filled the screen and pushed the moves
  // below the fold): one short line, every move in the first screen.
  await phone.goto(server.url);
  s = await settle(phone, '4 4 4 4 4 4 4 4 4 4 4 4', 'south', 'missing');
  await searched(phone, 'done');
  const fold = () => phone.evaluate(() => {
    const rows = [...document.querySelectorAll('#moves tbody tr')].map((r) => r.getBoundingClientRect());
    const code = document.getElementById('generate').getBoundingClientRect();
    return { screen: innerHeight, scrolled: scrollY, rows: rows.length, bottom: Math.max(...rows.map((r) => r.bottom)),
      box: document.getElementById('message').getBoundingClientRect().height, command: code.height };
  });
  let f = await fold();
  check('phone, the opening: the missing-levels box is short', f.box <= 80, JSON.stringify(f));
  check('phone, the opening: all six moves in the first screen', f.rows === 6 && f.scrolled === 0 && f.bottom <= f.screen, JSON.stringify(f));
  await phone.tap('#missing summary');
  f = await fold();
  check('phone, the opening: a tap unfolds the levels and the command', f.command > 0 && f.box > 80, JSON.stringify(f));
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
