// owaredb serve's page: draws the board, asks /api/probe for the values of the position and
// its moves, plays moves, keeps the game's history (undo/redo) and the captured seeds.
//
// Positions are always stored from the side to move's view: pits 0..5 belong to the side to
// move, and after a move the board turns by six (docs/rules.md, Board and pits). The page
// keeps track of which physical side, South (bottom row) or North (top row), is to move, and
// draws each side's six pits in its own sowing order: South's from left to right, North's
// from right to left, as the players see them from their seats.
'use strict';

(() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const START = [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4];
  const NAME = { south: 'South', north: 'North' };
  const RULES_TEXT = {
    abapa: 'abapa: Oware, the rules of the seeds',
    awari: 'awari: computer Awari (Romein & Bal)',
  };
  const AUTOPLAY_MS = 500;
  const other = (side) => (side === 'south' ? 'north' : 'south');
  const $ = (id) => document.getElementById(id);
  const sum = (a) => a.reduce((x, y) => x + y, 0);

  const state = {
    info: null, // /api/info
    rules: 'abapa',
    history: [], // nodes: { pits, turn, captured: { south, north }, last: { side, move, captured } | null }
    index: 0,
    answer: null, // the /api/probe answer for the current node
    problem: null, // { kind: 'missing' | 'error', data }
    loading: false,
    request: 0, // number of the latest probe request: older answers are dropped
    timer: 0, // pending computer move
  };
  const node = () => state.history[state.index];

  // ---- positions and moves -------------------------------------------------------------

  // 12 counts separated by spaces or commas, at most 48 seeds; null otherwise.
  function parsePits(text) {
    const parts = String(text || '').trim().split(/[\s,]+/).filter(Boolean);
    if (parts.length !== 12 || parts.some((p) => !/^\d{1,2}$/.test(p))) return null;
    const pits = parts.map(Number);
    return sum(pits) <= 48 ? pits : null;
  }

  // Each side's six pits in its own sowing order (from its own left).
  function sides(n) {
    const mover = n.pits.slice(0, 6);
    const opponent = n.pits.slice(6);
    return n.turn === 'south' ? { south: mover, north: opponent } : { south: opponent, north: mover };
  }

  // The node after the mover plays pit `move` (1..6) capturing `captured` seeds (the server's
  // figure, which knows the rule set's grand slam): sow, capture, turn the board by six.
  function play(n, move, captured) {
    const p = n.pits.slice();
    const from = move - 1;
    let seeds = p[from];
    let at = from;
    p[from] = 0;
    while (seeds > 0) {
      at = (at + 1) % 12;
      if (at === from) continue; // 12 or more seeds skip the pit they came from
      p[at] += 1;
      seeds -= 1;
    }
    let took = 0;
    if (captured > 0) {
      for (let q = at; q >= 6 && (p[q] === 2 || p[q] === 3); --q) {
        took += p[q];
        p[q] = 0;
      }
    }
    if (took !== captured) throw new Error(`move ${move}: the capture is ${took}, the server says ${captured}`);
    return {
      pits: p.slice(6).concat(p.slice(0, 6)),
      turn: other(n.turn),
      captured: { ...n.captured, [n.turn]: n.captured[n.turn] + captured },
      last: { side: n.turn, move, captured },
    };
  }

  const key = (n) => `${n.turn}:${n.pits.join(' ')}`;

  // ---- the server ----------------------------------------------------------------------

  async function probe() {
    const n = node();
    const id = ++state.request;
    state.loading = true;
    state.answer = null;
    state.problem = null;
    render();
    let answer = null;
    let problem = null;
    try {
      const query = new URLSearchParams({ rules: state.rules, position: n.pits.join(' '), pv: '1' });
      const res = await fetch(`/api/probe?${query}`);
      const body = await res.json();
      if (res.ok) answer = body;
      else problem = { kind: res.status === 404 && body.missing_levels ? 'missing' : 'error', data: body };
    } catch (e) {
      problem = { kind: 'error', data: { error: `cannot reach the server: ${e.message}` } };
    }
    if (id !== state.request) return; // a newer position was asked for meanwhile
    state.loading = false;
    state.answer = answer;
    state.problem = problem;
    render();
    scheduleComputer();
  }

  // ---- actions -------------------------------------------------------------------------

  function go(next) {
    clearTimeout(state.timer);
    state.history = state.history.slice(0, state.index + 1);
    state.history.push(next);
    state.index += 1;
    probe();
  }

  function playMove(move) {
    const a = state.answer;
    if (state.loading || !a) return;
    const m = a.moves.find((x) => x.move === move);
    if (!m) return;
    try {
      go(play(node(), move, m.captured));
    } catch (e) {
      showProblem({ kind: 'error', data: { error: e.message } });
    }
  }

  // The first move of the line of perfect play (a best move that makes progress: from a
  // position worth t != 0 it heads for the next capture), else the first best move.
  function bestMove() {
    const a = state.answer;
    if (!a || !a.moves.length) return 0;
    return a.pv && a.pv.length ? a.pv[0].move : a.best[0];
  }

  function playBest() {
    const m = bestMove();
    if (m) playMove(m);
  }

  function setRoot(n) {
    clearTimeout(state.timer);
    state.history = [n];
    state.index = 0;
    probe();
  }

  function undo() {
    if (state.index === 0) return;
    clearTimeout(state.timer);
    state.index -= 1;
    probe();
  }

  function redo() {
    if (state.index + 1 >= state.history.length) return;
    clearTimeout(state.timer);
    state.index += 1;
    probe();
  }

  // Plays for the side to move if the computer plays it. Stops where the game is over, at an
  // error, or at a repeated position (perfect play may go round forever: endless play).
  function scheduleComputer() {
    clearTimeout(state.timer);
    const n = node();
    if (!$(`auto-${n.turn}`).checked || !state.answer || !state.answer.moves.length) return;
    const seen = state.history.slice(0, state.index).some((h) => key(h) === key(n));
    if (seen) {
      showProblem({
        kind: 'info',
        data: {
          error:
            'This position has occurred before: perfect play goes round forever here ' +
            '(endless play, counted as an even split). The computer stops.',
        },
      });
      return;
    }
    state.timer = setTimeout(playBest, AUTOPLAY_MS);
  }

  // ---- drawing -------------------------------------------------------------------------

  function el(name, attrs = {}, parent = null, text = null) {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== null) e.textContent = String(text);
    if (parent) parent.appendChild(e);
    return e;
  }

  function valueColour(v, seeds) {
    const t = seeds ? Math.max(-1, Math.min(1, v / seeds)) : 0;
    return `hsl(${Math.round(60 + 60 * t)}, 72%, ${t > 0.05 ? 34 : t < -0.05 ? 44 : 38}%)`;
  }

  const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `\u2212${-v}` : '0');
  const half = (x) => (Number.isInteger(x) ? String(x) : `${Math.floor(x)}\u00bd`);

  function drawBoard() {
    const svg = $('board');
    svg.replaceChildren();
    const n = node();
    const a = state.answer;
    const bySide = sides(n);
    const moves = new Map((a ? a.moves : []).map((m) => [m.move, m]));
    const best = new Set(a ? a.best : []);
    const seeds = sum(n.pits);

    el('rect', { x: 3, y: 3, width: 854, height: 394, rx: 48, class: 'wood', fill: '#9a6332', stroke: '#6b4020', 'stroke-width': 4 }, svg);
    // The row of the side to move is lit.
    el('rect', { x: 100, y: n.turn === 'north' ? 8 : 202, width: 660, height: 190, rx: 30, fill: '#ffd98a', 'fill-opacity': 0.28 }, svg);

    // Stores: each on its owner's right, North's on the left of the picture.
    for (const side of ['north', 'south']) {
      const x = side === 'north' ? 14 : 770;
      const g = el('g', { 'data-store': side }, svg);
      el('rect', { x, y: 36, width: 76, height: 328, rx: 38, fill: '#5a3516', stroke: '#3f240e', 'stroke-width': 3 }, g);
      el('text', { x: x + 38, y: 80, 'text-anchor': 'middle', 'font-size': 21, fill: '#f3dcb7', 'font-weight': 600 }, g, NAME[side]);
      el('text', { x: x + 38, y: 214, 'text-anchor': 'middle', 'font-size': 50, 'font-weight': 700, fill: '#fff', class: 'store-count' }, g, n.captured[side]);
      el('text', { x: x + 38, y: 244, 'text-anchor': 'middle', 'font-size': 16, fill: '#f3dcb7' }, g, 'captured');
      if (n.turn === side) el('circle', { cx: x + 38, cy: side === 'north' ? 120 : 320, r: 11, fill: '#ffd27a' }, g);
    }

    for (const side of ['north', 'south']) {
      const mover = side === n.turn;
      bySide[side].forEach((count, i) => {
        const column = side === 'south' ? i : 5 - i;
        const cx = 155 + 110 * column;
        const cy = side === 'north' ? 106 : 294;
        const m = mover ? moves.get(i + 1) : undefined;
        const g = el('g', { class: 'pit', 'data-pit': `${side}-${i}` }, svg);
        if (m) {
          g.classList.add('playable');
          g.setAttribute('tabindex', '0');
          g.setAttribute('role', 'button');
          g.setAttribute('aria-label', `${NAME[side]} move ${i + 1}: value ${signed(m.value)}`);
          g.addEventListener('click', () => playMove(i + 1));
          g.addEventListener('keydown', (e) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              playMove(i + 1);
            }
          });
        }
        const last = n.last && n.last.side === side && n.last.move === i + 1;
        el('circle', { cx, cy, r: 48, class: 'hole', fill: '#4a2a10', stroke: last ? '#ffe2a8' : '#3a200b', 'stroke-width': last ? 4 : 2, 'stroke-dasharray': last ? '7 5' : 'none' }, g);
        // The seeds as dots round the rim (up to 14, then an inner ring of 10), the count
        // in the middle.
        for (let k = 0; k < Math.min(count, 24); ++k) {
          const ring = k < 14 ? 0 : 1;
          const inRing = ring ? Math.min(count - 14, 10) : Math.min(count, 14);
          const index = ring ? k - 14 : k;
          const r = ring ? 26 : 37;
          const t = -Math.PI / 2 + (2 * Math.PI * index) / inRing + ring * 0.3;
          el('circle', { cx: (cx + r * Math.cos(t)).toFixed(1), cy: (cy + r * Math.sin(t)).toFixed(1), r: 5, fill: '#efe2c4', stroke: '#8a7352', 'stroke-width': 1 }, g);
        }
        el('text', { x: cx, y: cy + 12, 'text-anchor': 'middle', 'font-size': 34, 'font-weight': 700, fill: '#fff', class: 'count' }, g, count);
        if (mover) {
          // The move number on the inside of the row, the value on the outside.
          el('text', { x: cx, y: side === 'north' ? 179 : 235, 'text-anchor': 'middle', 'font-size': 20, 'font-weight': 600, fill: '#f3dcb7' }, g, i + 1);
          if (m) {
            const y = side === 'north' ? 12 : 346;
            const isBest = best.has(i + 1);
            el('rect', { x: cx - 50, y, width: 100, height: 42, rx: 21, fill: valueColour(m.value, seeds), stroke: isBest ? '#ffd27a' : '#fff', 'stroke-width': isBest ? 5 : 1.5, class: 'chip' }, g);
            el('text', { x: cx, y: y + 30, 'text-anchor': 'middle', 'font-size': 27, 'font-weight': 700, fill: '#fff', class: 'chip-value' }, g, (isBest ? '\u2605' : '') + signed(m.value));
          }
        }
      });
    }
  }

  function drawPanel() {
    const n = node();
    const a = state.answer;
    const seeds = sum(n.pits);
    const status = $('status');
    status.textContent = '';
    const side = document.createElement('span');
    side.className = 'side';
    side.textContent = NAME[n.turn];
    status.append(side, ` to move \u00b7 ${seeds} seeds on the board \u00b7 ${state.rules}`);

    const value = $('value');
    value.replaceChildren();
    if (a) {
      // Values are for the side to move; the final counts follow: the mover still captures
      // (seeds + value) / 2 of the seeds on the board, the opponent the rest.
      const v = a.value;
      const mover = n.captured[n.turn] + (seeds + v) / 2;
      const opponent = n.captured[other(n.turn)] + (seeds - v) / 2;
      const strong = document.createElement('strong');
      strong.textContent = signed(v);
      strong.style.color = valueColour(v, seeds);
      value.append(
        'Value ', strong, ` for ${NAME[n.turn]}. With perfect play: `,
        `${NAME[n.turn]} ${half(mover)}, ${NAME[other(n.turn)]} ${half(opponent)}.`,
      );
    }

    $('analysis').hidden = !a;
    const tbody = $('moves').tBodies[0];
    tbody.replaceChildren();
    if (a) {
      const best = new Set(a.best);
      for (const m of a.moves) {
        const tr = document.createElement('tr');
        tr.dataset.move = m.move;
        tr.dataset.value = m.value;
        tr.dataset.captured = m.captured;
        tr.className = `playable${best.has(m.move) ? ' best' : ''}`;
        tr.title = `play ${NAME[n.turn]}'s pit ${m.move}`;
        tr.addEventListener('click', () => playMove(m.move));
        const cells = [`${NAME[n.turn][0]}${m.move}`, m.captured || '', signed(m.value)];
        cells.forEach((c, i) => {
          const td = document.createElement('td');
          td.textContent = c;
          if (i === 2) {
            td.className = 'v';
            td.style.color = valueColour(m.value, seeds);
          }
          tr.appendChild(td);
        });
        const td = document.createElement('td');
        const bar = document.createElement('div');
        bar.className = 'bar';
        const fill = document.createElement('span');
        const t = seeds ? m.value / seeds : 0;
        fill.style.left = `${50 + Math.min(0, t) * 50}%`;
        fill.style.width = `${Math.abs(t) * 50}%`;
        fill.style.background = valueColour(m.value, seeds);
        bar.appendChild(fill);
        td.appendChild(bar);
        tr.appendChild(td);
        tbody.appendChild(tr);
      }
    }

    const pv = $('pv');
    pv.replaceChildren();
    if (a && a.pv) {
      let turn = n.turn;
      a.pv.slice(0, 80).forEach((s, i) => {
        const span = document.createElement('span');
        span.className = `step ${turn}${s.captured ? ' cap' : ''}`;
        span.textContent = `${i + 1}. ${NAME[turn][0]}${s.move}${s.captured ? ` \u00d7${s.captured}` : ''}`;
        span.title = `${NAME[turn]} plays ${s.move} in [${s.position}], worth ${signed(s.value)} to it`;
        pv.appendChild(span);
        turn = other(turn);
      });
      const end = document.createElement('span');
      end.className = 'end';
      end.textContent = `${a.pv.length > 80 ? '\u2026 ' : ''}(${a.pv_end}${a.pv.length ? `, ${a.pv.length} plies` : ''})`;
      pv.appendChild(end);
    }

    // The form follows the position unless it is being edited.
    const form = $('setup');
    if (!form.contains(document.activeElement)) {
      $('position').value = n.pits.join(' ');
      $('turn').value = n.turn;
      $('cap-south').value = n.captured.south;
      $('cap-north').value = n.captured.north;
    }
    $('rules').value = state.rules;

    $('undo').disabled = state.index === 0;
    $('redo').disabled = state.index + 1 >= state.history.length;
    $('best').disabled = state.loading || !a || !a.moves.length;
  }

  function showProblem(p) {
    state.problem = p;
    drawMessage();
  }

  function drawMessage() {
    const box = $('message');
    const n = node();
    const a = state.answer;
    const p = state.problem;
    box.replaceChildren();
    box.className = 'message';
    if (p && p.kind === 'missing') {
      const d = p.data;
      const levels = d.missing_levels.join(', ');
      box.append(
        `The ${d.rules} database ${d.missing_levels.length > 1 ? 'levels' : 'level'} ${levels} ` +
          `(for positions with ${d.missing_levels.length > 1 ? 'those numbers of' : 'that many'} seeds) ` +
          `${d.missing_levels.length > 1 ? 'are' : 'is'} missing, so this ${d.seeds}-seed position has no value yet. Build ` +
          `${d.missing_levels.length > 1 ? 'them' : 'it'} with:`,
      );
      const code = document.createElement('code');
      code.id = 'generate';
      code.textContent = d.generate;
      box.appendChild(code);
    } else if (p) {
      if (p.kind === 'info') box.classList.add('info');
      box.textContent = p.data.error;
    } else if (a && a.terminal) {
      box.classList.add('over');
      const seeds = sum(n.pits);
      const mover = (seeds + a.value) / 2;
      const rest = seeds - mover;
      const final = { ...n.captured };
      final[n.turn] += mover;
      final[other(n.turn)] += rest;
      box.textContent =
        `Game over: ${NAME[n.turn]} has no move. ` +
        (seeds ? `${NAME[n.turn]} takes ${mover}, ${NAME[other(n.turn)]} ${rest} of the seeds left. ` : '') +
        `Final: South ${final.south}, North ${final.north}.`;
    }
    box.hidden = !box.childNodes.length;
    document.body.dataset.state = state.loading ? 'loading' : p ? (p.kind === 'missing' ? 'missing' : p.kind === 'info' ? 'ready' : 'error') : 'ready';
    document.body.dataset.over = a && a.terminal ? '1' : '0';
  }

  function updateUrl() {
    const n = node();
    const q = new URLSearchParams({ rules: state.rules, position: n.pits.join(' ') });
    if (n.turn !== 'south') q.set('turn', n.turn);
    if (n.captured.south) q.set('south', n.captured.south);
    if (n.captured.north) q.set('north', n.captured.north);
    const url = `/?${q}`;
    history.replaceState(null, '', url);
    const share = $('share');
    share.href = url;
    share.textContent = new URL(url, location.href).href;
  }

  function render() {
    const n = node();
    document.body.dataset.position = n.pits.join(' ');
    document.body.dataset.turn = n.turn;
    document.body.dataset.ply = state.index;
    drawBoard();
    drawPanel();
    drawMessage();
    updateUrl();
  }

  function drawLevels() {
    const info = state.info;
    if (!info) return;
    const ranges = (list) => {
      if (!list.length) return 'none';
      const out = [];
      for (let i = 0; i < list.length; ) {
        let j = i;
        while (j + 1 < list.length && list[j + 1] === list[j] + 1) ++j;
        out.push(i === j ? `${list[i]}` : `${list[i]}\u2013${list[j]}`);
        i = j + 1;
      }
      return out.join(', ');
    };
    $('levels').textContent =
      `Databases in ${info.dir}: ` + info.rules.map((r) => `${r} levels ${ranges(info.levels[r] || [])}`).join('; ') + '.';
  }

  // ---- start ---------------------------------------------------------------------------

  async function start() {
    try {
      const res = await fetch('/api/info');
      state.info = await res.json();
    } catch (e) {
      state.info = null;
    }
    const select = $('rules');
    const names = state.info ? state.info.rules : ['abapa', 'awari'];
    for (const r of names) {
      const o = document.createElement('option');
      o.value = r;
      o.textContent = RULES_TEXT[r] || r;
      select.appendChild(o);
    }
    const q = new URLSearchParams(location.search);
    state.rules = names.includes(q.get('rules')) ? q.get('rules') : state.info ? state.info.default : 'abapa';
    const count = (s) => Math.max(0, Math.min(48, parseInt(q.get(s) || '0', 10) || 0));
    const pits = q.has('position') ? parsePits(q.get('position')) : START;
    drawLevels();
    const root = {
      pits: pits || START,
      turn: q.get('turn') === 'north' ? 'north' : 'south',
      captured: { south: count('south'), north: count('north') },
      last: null,
    };
    state.history = [root];
    state.index = 0;
    await probe();
    if (!pits) showProblem({ kind: 'error', data: { error: `invalid position '${q.get('position')}': 12 counts, at most 48 seeds (showing the start position)` } });

    select.addEventListener('change', () => {
      state.rules = select.value;
      probe();
    });
    $('undo').addEventListener('click', undo);
    $('redo').addEventListener('click', redo);
    $('best').addEventListener('click', playBest);
    $('auto-north').addEventListener('change', scheduleComputer);
    $('auto-south').addEventListener('change', scheduleComputer);
    $('new-game').addEventListener('click', () => {
      setRoot({ pits: START.slice(), turn: 'south', captured: { south: 0, north: 0 }, last: null });
    });
    $('setup').addEventListener('submit', (e) => {
      e.preventDefault();
      const p = parsePits($('position').value);
      if (!p) {
        showProblem({ kind: 'error', data: { error: 'a position is 12 counts (pits 0..11, the side to move first), at most 48 seeds' } });
        return;
      }
      const c = (id) => Math.max(0, Math.min(48, parseInt($(id).value, 10) || 0));
      document.activeElement.blur();
      setRoot({ pits: p, turn: $('turn').value, captured: { south: c('cap-south'), north: c('cap-north') }, last: null });
    });
    document.addEventListener('keydown', (e) => {
      if (e.target.closest && e.target.closest('input, select, textarea')) return;
      if (e.key === 'ArrowLeft') undo();
      else if (e.key === 'ArrowRight') redo();
    });
  }

  start();
})();
