// owaredb serve's page: draws the board, asks /api/probe for the values of the position and
// its moves and for the position after each move (children=1: the page holds no copy of the
// rules), plays moves, keeps the game's history (undo/redo, a game record that can be pasted
// back) and the captured seeds.
//
// A position whose levels are missing is still played: the server's error object (README,
// Errors) lists the legal moves with their captures and children, valued where a move leads
// into the levels present, so a game from the opening goes on until it reaches the
// databases; there a search (GET /api/search), where the server has one, suggests and plays
// moves: its move, its values of the moves and its line are shown apart from the database
// values and named as a search's (proven or an estimate), never as perfect play.
//
// Moves are listed best first and coloured by the result they keep for the side to move
// (win, draw, loss), given the seeds captured so far and endless play split evenly, as
// lichess colours moves by result rather than by evaluation; the result reads as players
// say it ("wins by 3"), beside the value (the seed margin still to come).
//
// Positions are always stored from the side to move's view: pits 0..5 belong to the side to
// move, and after a move the board turns by six (docs/rules.md, Board and pits). The page
// keeps track of which physical side, South (bottom row) or North (top row), is to move, and
// draws each side's six pits in its own sowing order: South's from left to right, North's
// from right to left, as the players see them from their seats. "Flip" (remembered in
// localStorage) puts North at the bottom, as North's player sees it.
//
// On a board of P pits a side (the server's directory is of one board, /api/info's
// pits_per_side), read six as P and twelve as 2P: positions are 2P counts, moves 1..P, and
// a game starts with /api/info's seeds_per_pit in every pit (4 on the standard board).
'use strict';

(() => {
  const SVG = 'http://www.w3.org/2000/svg';
  // The board, from /api/info when it has been read: pits a side, and the first position.
  let P = 6;
  let START = [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4];
  const NAME = { south: 'South', north: 'North' };
  const AUTOPLAY_MS = 500;
  const FLIP_KEY = 'owaredb-flip'; // localStorage: '1' when North is drawn at the bottom
  const SEARCH_BUDGET = '500ms'; // a suggestion's search, where the databases have no value
  const SEARCH_TRIES = 5; // a busy server (503) is asked this many times, then the page says so
  const SEARCH_COLOUR = '#5b4bb7'; // search values: never the colours of database results
  let TOTAL = 48; // seeds in a game: on the board plus both stores
  // The largest level a laptop builds in a night (docs/results.md: level 28 in 0.2 h, 6 GiB
  // in memory); a page facing a far larger build suggests this one too.
  const NIGHT_LEVEL = 28;
  const RESULT_COLOUR = { win: '#1d7a3a', draw: '#6d6a64', loss: '#b3261e', unknown: '#8c7b66' };
  const other = (side) => (side === 'south' ? 'north' : 'south');
  const $ = (id) => document.getElementById(id);
  const sum = (a) => a.reduce((x, y) => x + y, 0);

  const state = {
    info: null, // /api/info
    rules: 'abapa',
    history: [], // nodes: { pits, turn, captured: { south, north }, last: { side, move, captured } | null }
    index: 0,
    answer: null, // the /api/probe answer for the current node; { partial: true, ... } when its levels are missing
    problem: null, // { kind: 'error' | 'info', data }
    notice: null, // an error about what was asked (a link, the form, a game record), until the next action
    note: null, // how the captured seeds were inferred, while the game lasts
    loading: false,
    request: 0, // number of the latest probe request: older answers are dropped
    timer: 0, // pending computer move
    flipped: false, // North drawn at the bottom
    missingOpen: false, // the missing levels' details shown
    search: null, // /api/search's "search" for the current node, where the databases have no value
    // The search request for the current node: 'none' (none asked), 'pending', 'done'
    // (state.search holds its answer), 'busy' (503: asked again after Retry-After), 'failed';
    // searchText says why for the last two.
    searchStatus: 'none',
    searchText: '',
    searchAbort: null, // the AbortController of the search request in flight
    searchTimer: 0, // a search asked again once the busy server's Retry-After has passed
  };
  const node = () => state.history[state.index];

  // ---- positions and moves -------------------------------------------------------------

  // 12 (2P) counts separated by spaces or commas, at most 48 (TOTAL) seeds; null otherwise.
  function parsePits(text) {
    const parts = String(text || '').trim().split(/[\s,]+/).filter(Boolean);
    if (parts.length !== 2 * P || parts.some((p) => !/^\d{1,2}$/.test(p))) return null;
    const pits = parts.map(Number);
    return sum(pits) <= TOTAL ? pits : null;
  }

  // The seeds captured so far, South's and North's texts as given (a link's south= and
  // north=, the form's fields; empty or null: not given), for a board of `board` seeds:
  // { captured, note } or { error }. A game holds 48 seeds, so given counts must add up
  // with the board; one count given implies the other; none given splits the rest evenly
  // (the odd seed to South) and says so. Nothing is clamped: a count out of range is an
  // error naming it.
  function parseCaptured(board, southText, northText) {
    const given = {};
    for (const [side, text] of [['south', southText], ['north', northText]]) {
      if (text === null || text === undefined || String(text).trim() === '') continue;
      const t = String(text).trim();
      if (!/^\d{1,2}$/.test(t) || Number(t) > TOTAL)
        return { error: `${NAME[side]} captured '${t}': a count of seeds, 0..${TOTAL}` };
      given[side] = Number(t);
    }
    const rest = TOTAL - board;
    if ('south' in given && 'north' in given) {
      if (given.south + given.north !== rest)
        return {
          error: `South ${given.south} + North ${given.north} captured + ${board} on the board = ` +
            `${given.south + given.north + board} seeds, but a game has ${TOTAL}`,
        };
      return { captured: given, note: null };
    }
    for (const [side, count] of Object.entries(given)) {
      const rival = rest - count;
      if (rival < 0)
        return { error: `${NAME[side]} captured ${count} + ${board} on the board is more than the ${TOTAL} seeds of a game` };
      return { captured: { [side]: count, [other(side)]: rival }, note: null };
    }
    const south = Math.ceil(rest / 2);
    return {
      captured: { south, north: rest - south },
      note: rest ? `Captured seeds not given: taken as South ${south}, North ${rest - south} (the ${rest} off the board split evenly).` : null,
    };
  }

  // A game record: moves as "S3 N1 S6 ..." (side letter optional, move numbers such as
  // "12." ignored); [{ side | null, move }] or { error }.
  function parseRecord(text) {
    const out = [];
    const words = String(text || '').trim().split(/[\s,;]+/).filter(Boolean);
    for (const w of words) {
      if (/^\d+\.$/.test(w)) continue;
      const m = /^([SsNn])?([1-8])$/.exec(w);
      if (!m || Number(m[2]) > P) return { error: `'${w}' is not a move (S1..S${P}, N1..N${P}, or 1..${P})` };
      out.push({ side: m[1] ? (m[1].toUpperCase() === 'S' ? 'south' : 'north') : null, move: Number(m[2]) });
    }
    return out;
  }

  // Each side's six (P) pits in its own sowing order (from its own left).
  function sides(n) {
    const mover = n.pits.slice(0, P);
    const opponent = n.pits.slice(P);
    return n.turn === 'south' ? { south: mover, north: opponent } : { south: opponent, north: mover };
  }

  // The node after the mover of `n` plays `m`, a move of the server's answer: its pit, its
  // capture and its child (the position after it, the opponent to move). The rules are the
  // server's alone: the page never sows the seeds itself.
  function play(n, m) {
    const pits = String(m.child || '').split(' ').map(Number);
    if (pits.length !== 2 * P || pits.some((x) => !Number.isInteger(x)))
      throw new Error(`move ${m.move}: the server gave no position after it`);
    return {
      pits,
      turn: other(n.turn),
      captured: { ...n.captured, [n.turn]: n.captured[n.turn] + m.captured },
      last: { side: n.turn, move: m.move, captured: m.captured },
    };
  }

  const key = (n) => `${n.turn}:${n.pits.join(' ')}`;

  // ---- the server ----------------------------------------------------------------------

  // One query: { answer } for a position the databases answer, { answer: { partial: true,
  // ... } } for one whose levels are missing (the error object with its moves), { problem }
  // otherwise.
  async function ask(n, pv) {
    try {
      const query = new URLSearchParams({ rules: state.rules, position: n.pits.join(' '), children: '1' });
      if (pv) query.set('pv', '1');
      const res = await fetch(`/api/probe?${query}`);
      const body = await res.json();
      if (res.ok) return { answer: body };
      if (res.status === 404 && body.status === 'not_available' && body.moves)
        return { answer: { ...body, partial: true, best: [], terminal: body.moves.length === 0 } };
      return { problem: { kind: 'error', data: body } };
    } catch (e) {
      return { problem: { kind: 'error', data: { error: `cannot reach the server: ${e.message}` } } };
    }
  }

  async function probe() {
    const n = node();
    const id = ++state.request;
    state.loading = true;
    state.answer = null;
    state.problem = null;
    stopSearch();
    render();
    const { answer = null, problem = null } = await ask(n, true);
    if (id !== state.request) return; // a newer position was asked for meanwhile
    state.loading = false;
    state.answer = answer;
    state.problem = problem;
    render();
    if (answer && answer.partial && !answer.terminal) suggest(n, id);
    else scheduleComputer();
  }

  // The search for the node shown is no longer wanted (the position changed): its request
  // is aborted, its retry forgotten, its answer dropped.
  function stopSearch() {
    if (state.searchAbort) state.searchAbort.abort();
    clearTimeout(state.searchTimer);
    state.searchAbort = null;
    state.search = null;
    state.searchStatus = 'none';
    state.searchText = '';
  }

  function setSearch(status, text = '') {
    state.searchStatus = status;
    state.searchText = text;
    drawPanel();
    drawMessage();
    scheduleComputer();
  }

  // A search's suggestion (GET /api/search, its "search" member) for a position whose
  // levels are missing: shown apart from the database values and named as a search's
  // answer, proven or an estimate; the computer and "Play the search's move" play it. One
  // request at a time: a new position aborts the one in flight (stopSearch), and an answer
  // for a node no longer shown (`id` is not the latest request) is dropped. A busy server
  // (503, its searches at once all running) is asked again after its Retry-After, and the
  // page says so; a server without the endpoint (404) leaves the page as it was.
  async function suggest(n, id, tries = 1) {
    const abort = new AbortController();
    state.searchAbort = abort;
    setSearch('pending');
    let res;
    let body;
    try {
      const query = new URLSearchParams({ rules: state.rules, position: n.pits.join(' '), budget: SEARCH_BUDGET });
      res = await fetch(`/api/search?${query}`, { signal: abort.signal });
      body = await res.json().catch(() => ({}));
    } catch (e) {
      if (id === state.request && !abort.signal.aborted) setSearch('failed', `Search failed: cannot reach the server (${e.message}).`);
      return;
    }
    if (id !== state.request || abort.signal.aborted) return;
    state.searchAbort = null;
    if (res.status === 503) {
      const wait = Math.min(10, Math.max(1, Number(res.headers.get('Retry-After')) || 1));
      const why = String(body.error || 'the server is busy').replace(/^busy: */, '');
      if (tries >= SEARCH_TRIES) {
        setSearch('failed', `Search not available: ${why} (asked ${tries} times). The moves can still be played.`);
        return;
      }
      state.searchTimer = setTimeout(() => id === state.request && suggest(n, id, tries + 1), wait * 1000);
      setSearch('busy', `Search busy: ${why}. Asking again in ${wait} s.`);
    } else if (res.status === 404 && !body.status) {
      setSearch('none'); // no search on this server
    } else if (!res.ok || !body.search || !Number.isInteger(body.search.move)) {
      setSearch('failed', `Search failed: ${body.error || `status ${res.status}`}.`);
    } else {
      state.search = body.search;
      setSearch('done');
    }
  }

  // The search's answer, or what became of its request.
  function drawSearch() {
    const box = $('search');
    const s = state.search;
    const status = state.searchStatus;
    document.body.dataset.search = status;
    box.hidden = status === 'none';
    if (status !== 'done') {
      box.dataset.kind = status;
      box.textContent = status === 'pending' ? `Searching (up to ${SEARCH_BUDGET}) \u2026` : state.searchText;
      return;
    }
    const n = node();
    const proven = s.kind === 'proven';
    box.dataset.kind = proven ? 'proven' : 'estimate';
    box.textContent = `${proven ? 'Proven by search' : 'Search estimate, not a database value'}: ` +
      `${NAME[n.turn][0]}${s.move}, value ${signed(s.value)} for ${NAME[n.turn]} (depth ${s.depth}).`;
  }

  // ---- actions -------------------------------------------------------------------------

  function go(...nodes) {
    clearTimeout(state.timer);
    state.notice = null;
    state.history = state.history.slice(0, state.index + 1).concat(nodes);
    state.index += nodes.length;
    probe();
  }

  function playMove(move) {
    const a = state.answer;
    if (state.loading || !a) return;
    const m = a.moves.find((x) => x.move === move);
    if (!m) return;
    try {
      go(play(node(), m));
    } catch (e) {
      showProblem({ kind: 'error', data: { error: e.message } });
    }
  }

  // Plays the principal variation up to and including its step `upto` (a click on it).
  function playLine(upto) {
    const a = state.answer;
    if (state.loading || !a || !a.pv) return;
    const nodes = [];
    let n = node();
    try {
      // Each step's child is the next step's position (the last one's, the line's end).
      a.pv.slice(0, upto + 1).forEach((s, i) => {
        n = play(n, { ...s, child: i + 1 < a.pv.length ? a.pv[i + 1].position : a.final_position });
        nodes.push(n);
      });
    } catch (e) {
      showProblem({ kind: 'error', data: { error: e.message } });
      return;
    }
    go(...nodes);
  }

  // The moves from the game's first position to the current one, "S3 N1 S6 ...".
  function record(upto = state.index) {
    return state.history
      .slice(1, upto + 1)
      .map((h) => `${NAME[h.last.side][0]}${h.last.move}`)
      .join(' ');
  }

  // Plays a pasted game record from the game's first position, asking the server for each
  // position's legal moves and captures (the rules are its). Stops at the first move that
  // is not legal, keeping the moves before it and saying why.
  async function loadRecord(text) {
    clearTimeout(state.timer);
    const moves = parseRecord(text);
    if (moves.error) {
      showNotice(`Game record not read: ${moves.error}.`); // the game stays as it is
      return;
    }
    const id = ++state.request;
    let n = state.history[0];
    const nodes = [];
    let error = null;
    state.loading = true;
    render();
    for (let i = 0; !error && i < moves.length; ++i) {
      const { move, side } = moves[i];
      const what = `move ${i + 1} (${side ? NAME[side][0] : ''}${move})`;
      if (side && side !== n.turn) {
        error = `${what}: ${NAME[n.turn]} is to move`;
        break;
      }
      const { answer, problem } = await ask(n, false);
      if (id !== state.request) return;
      if (!answer) {
        error = `${what}: ${problem.data.error}`;
        break;
      }
      const m = answer.moves.find((x) => x.move === move);
      if (!m) {
        error = `${what}: not a legal move for ${NAME[n.turn]} here` +
          (answer.moves.length ? ` (legal: ${answer.moves.map((x) => x.move).join(', ')})` : ' (the game is over)');
        break;
      }
      try {
        n = play(n, m);
      } catch (e) {
        error = `${what}: ${e.message}`;
        break;
      }
      nodes.push(n);
    }
    state.loading = false;
    state.history = [state.history[0], ...nodes];
    state.index = nodes.length;
    await probe();
    if (error) showNotice(`Game record: ${error}; played the ${nodes.length} moves before it.`);
  }

  // The first move of the line of perfect play (a best move that makes progress: from a
  // position worth t != 0 it heads for the next capture), else the first best move.
  function bestMove() {
    const a = state.answer;
    if (!a || !a.moves.length) return 0;
    return a.pv && a.pv.length ? a.pv[0].move : a.best[0];
  }

  // Perfect play where the databases value the position; outside them the search's move,
  // once its answer is there.
  function playBest() {
    const a = state.answer;
    if (a && a.partial) {
      if (state.search) playMove(state.search.move);
      return;
    }
    const m = bestMove();
    if (m) playMove(m);
  }

  function setRoot(n) {
    clearTimeout(state.timer);
    state.notice = null;
    state.history = [n];
    state.index = 0;
    probe();
  }

  function undo() {
    if (state.index === 0) return;
    clearTimeout(state.timer);
    state.notice = null;
    state.index -= 1;
    probe();
  }

  function redo() {
    if (state.index + 1 >= state.history.length) return;
    clearTimeout(state.timer);
    state.notice = null;
    state.index += 1;
    probe();
  }

  // Plays for the side to move if the computer plays it: perfect play from the databases,
  // or outside them the search's move once it has come (suggest calls this again then).
  // Stops where the game is over, at an error, where no search answers, or at a repeated
  // position (perfect play may go round forever: endless play).
  function scheduleComputer() {
    clearTimeout(state.timer);
    const n = node();
    if (!$(`auto-${n.turn}`).checked || !state.answer || !state.answer.moves.length) return;
    if (state.answer.partial && !state.search) {
      if (state.searchStatus === 'none' || state.searchStatus === 'failed')
        showProblem({
          kind: 'info',
          data: { error: `The computer cannot play here: the position is not in the databases and no search answered. Play ${NAME[n.turn]}'s move yourself.` },
        });
      return;
    }
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

  // What a move worth `v` to the side to move of `n` (or `n` itself, worth `v`) leaves at
  // the end with perfect play, endless play split evenly: the mover's seeds, the
  // opponent's, and so the mover's result.
  function outcome(n, v) {
    const seeds = sum(n.pits);
    const mine = n.captured[n.turn] + (seeds + v) / 2;
    const theirs = n.captured[other(n.turn)] + (seeds - v) / 2;
    return { mine, theirs, result: mine > theirs ? 'win' : mine < theirs ? 'loss' : 'draw' };
  }

  // A result as players say it, from the side to move's seat: "draw", "wins by 3", "loses
  // by 3" (the final margin: a whole number even when each side's count ends in a half).
  function words(o) {
    const margin = o.mine - o.theirs;
    return margin > 0 ? `wins by ${margin}` : margin < 0 ? `loses by ${-margin}` : 'draw';
  }

  // The exact final counts behind words(o), for a tooltip or small print.
  const finalScore = (n, o) => `final score ${NAME[n.turn]} ${half(o.mine)}, ${NAME[other(n.turn)]} ${half(o.theirs)}`;

  // The moves best first: known values from the highest, then those not in the databases;
  // equal values in pit order. Outside the databases a move without a database value is
  // ranked by its search value (`searched`: move -> the search's entry), after a database
  // value equal to it; among equal search values the search's move (`chosen`) first, then
  // exact values, then bounds.
  function ranked(moves, searched = new Map(), chosen = 0) {
    const rank = (m) => {
      const s = searched.get(m.move);
      if (known(m)) return [m.value, 3];
      return s ? [s.value, m.move === chosen ? 2 : s.bound === 'exact' ? 1 : 0] : null;
    };
    return moves.slice().sort((x, y) => {
      const [a, b] = [rank(x), rank(y)];
      return (a === null) - (b === null) || (a === null ? 0 : b[0] - a[0] || b[1] - a[1]) || x.move - y.move;
    });
  }

  // A search value as the table writes it, never as a database value: "\u2248+2" an estimate,
  // "+2" proven, "\u2264+2" at most (the search proved only that the move is not better).
  const searchValue = (s) => `${s.bound === 'at_most' ? '\u2264' : s.proven ? '' : '\u2248'}${signed(s.value)}`;

  // Under the rules as written (docs/values.md, Convention-free bounds), from the bound
  // files' gM and gN (what the mover and the opponent can force by play that ends): 'win',
  // 'loss' or 'draw' when that is certain whatever the rule for endless play, 'repetition'
  // when the result depends on how play repeats; null without bound files.
  function written(n, gM, gN) {
    if (gM === undefined || gN === undefined) return null;
    const mine = n.captured[n.turn] + gM;
    const theirs = n.captured[other(n.turn)] + gN;
    if (2 * mine > TOTAL) return 'win';
    if (2 * theirs > TOTAL) return 'loss';
    if (2 * mine === TOTAL && 2 * theirs === TOTAL) return 'draw';
    return 'repetition';
  }

  const known = (m) => m && m.value !== undefined;
  const colourOf = (n, m) => RESULT_COLOUR[known(m) ? outcome(n, m.value).result : 'unknown'];

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
    // The side drawn at the top: its store on the left, its pits from right to left.
    const top = state.flipped ? 'south' : 'north';

    // A row of P pits is 110 P wide (660 for six); the picture grows or shrinks with it.
    const wide = 110 * P - 660;
    svg.setAttribute('viewBox', `0 0 ${860 + wide} 400`);
    el('rect', { x: 3, y: 3, width: 854 + wide, height: 394, rx: 48, class: 'wood', fill: '#9a6332', stroke: '#6b4020', 'stroke-width': 4 }, svg);
    // The row of the side to move is lit.
    el('rect', { x: 100, y: n.turn === top ? 8 : 202, width: 660 + wide, height: 190, rx: 30, fill: '#ffd98a', 'fill-opacity': 0.28 }, svg);

    // Stores: each on its owner's right, the top side's on the left of the picture.
    for (const side of ['north', 'south']) {
      const x = side === top ? 14 : 770 + wide;
      const g = el('g', { 'data-store': side }, svg);
      el('rect', { x, y: 36, width: 76, height: 328, rx: 38, fill: '#5a3516', stroke: '#3f240e', 'stroke-width': 3 }, g);
      el('text', { x: x + 38, y: 80, 'text-anchor': 'middle', 'font-size': 21, fill: '#f3dcb7', 'font-weight': 600 }, g, NAME[side]);
      el('text', { x: x + 38, y: 214, 'text-anchor': 'middle', 'font-size': 50, 'font-weight': 700, fill: '#fff', class: 'store-count' }, g, n.captured[side]);
      el('text', { x: x + 38, y: 244, 'text-anchor': 'middle', 'font-size': 16, fill: '#f3dcb7' }, g, 'captured');
      if (n.turn === side) el('circle', { cx: x + 38, cy: side === top ? 120 : 320, r: 11, fill: '#ffd27a' }, g);
    }

    for (const side of ['north', 'south']) {
      const mover = side === n.turn;
      bySide[side].forEach((count, i) => {
        const column = side === top ? P - 1 - i : i;
        const cx = 155 + 110 * column;
        const cy = side === top ? 106 : 294;
        const m = mover ? moves.get(i + 1) : undefined;
        const g = el('g', { class: 'pit', 'data-pit': `${side}-${i}` }, svg);
        if (m) {
          g.classList.add('playable');
          g.setAttribute('tabindex', '0');
          g.setAttribute('role', 'button');
          g.setAttribute('aria-label', `${NAME[side]} move ${i + 1}: ` +
            (known(m) ? `value ${signed(m.value)}, ${words(outcome(n, m.value))}` : 'not in the databases'));
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
          el('text', { x: cx, y: side === top ? 179 : 235, 'text-anchor': 'middle', 'font-size': 20, 'font-weight': 600, fill: '#f3dcb7' }, g, i + 1);
          if (m) {
            const y = side === top ? 12 : 346;
            const isBest = best.has(i + 1);
            const result = known(m) ? outcome(n, m.value).result : 'unknown';
            el('rect', { x: cx - 50, y, width: 100, height: 42, rx: 21, fill: RESULT_COLOUR[result], stroke: isBest ? '#ffd27a' : '#fff', 'stroke-width': isBest ? 5 : 1.5, class: `chip ${result}` }, g);
            el('text', { x: cx, y: y + 30, 'text-anchor': 'middle', 'font-size': 27, 'font-weight': 700, fill: '#fff', class: 'chip-value' }, g,
              known(m) ? (isBest ? '\u2605' : '') + signed(m.value) : '?');
          }
        }
      });
    }
  }

  // What the bound files add to an even-split result `result`: whether the rules as
  // written make it certain.
  function certainty(w, result) {
    if (w === 'repetition')
      return `Under the rules as written the result is decided by repetition (with an even split: ${result}).`;
    return `Under the rules as written that ${w === 'draw' ? 'draw' : w} is certain, whatever the rule for endless play.`;
  }

  // The position's result in words from the mover's seat, the exact numbers in small print.
  function drawValue(n, a) {
    const value = $('value');
    value.replaceChildren();
    if (a && !a.partial) {
      // Values are for the side to move; the final counts follow: the mover still captures
      // (seeds + value) / 2 of the seeds on the board, the opponent the rest.
      const o = outcome(n, a.value);
      const strong = document.createElement('strong');
      strong.textContent = o.result === 'draw' ? 'Draw' : `${NAME[n.turn]} ${words(o)}`;
      strong.style.color = RESULT_COLOUR[o.result];
      const exact = document.createElement('small');
      exact.className = 'exact';
      exact.textContent = `Value ${signed(a.value)} for ${NAME[n.turn]} (the seeds it still captures minus ` +
        `${NAME[other(n.turn)]}'s); ${finalScore(n, o)}.`;
      value.append(strong, ' with perfect play.', exact);
      const w = written(n, a.gM, a.gN);
      if (w) exact.append(' ', certainty(w, o.result));
      value.dataset.result = o.result;
    } else if (a) {
      value.textContent = 'Not in the databases: its value is not known.';
      value.dataset.result = 'unknown';
    }
  }

  // What a search value `sv` (the search's entry for a move without a database value) adds
  // to the row `tr`: its marks, its result in words `result` and its colour.
  function searchedRow(n, tr, result, sv) {
    tr.classList.add('searched');
    tr.dataset.searchValue = sv.value;
    tr.dataset.searchBound = sv.bound;
    tr.dataset.searchProven = sv.proven ? '1' : '0';
    const o = outcome(n, sv.value);
    result[0].textContent = `${sv.bound === 'at_most' ? 'at best ' : ''}${words(o)}`;
    // The separator inside the mark, so that a phone, short of width, leaves both out (the
    // value's \u2248 or \u2264, its colour and the legend still say it is the search's).
    const how = document.createElement('span');
    how.className = 'how search-how';
    how.textContent = ` \u00b7\u00a0${sv.proven ? 'proven' : 'estimate'}`;
    result.push(how);
    tr.title += `: ${sv.proven ? 'proven by search' : 'a search estimate, not a database value'}`;
    return SEARCH_COLOUR;
  }

  // The row of move `m` of node `n`: its result in words, the exact counts in its tooltip;
  // outside the databases, `sv` the search's entry for it (marked as a search value).
  function moveRow(n, m, best, sv) {
    const tr = document.createElement('tr');
    tr.dataset.move = m.move;
    tr.dataset.captured = m.captured;
    tr.className = `playable${best ? ' best' : ''}`;
    tr.title = `play ${NAME[n.turn]}'s pit ${m.move}`;
    tr.addEventListener('click', () => playMove(m.move));
    // The result's words kept on one line; what the bound files add may go to the next.
    const result = [document.createElement('span')];
    result[0].className = 'words';
    result[0].textContent = 'not in the databases';
    let colour = RESULT_COLOUR.unknown;
    if (known(m)) {
      const o = outcome(n, m.value);
      tr.dataset.value = m.value;
      tr.dataset.result = o.result;
      colour = RESULT_COLOUR[o.result];
      result[0].textContent = words(o);
      tr.title += `: ${finalScore(n, o)} with perfect play`;
      const w = written(n, m.gM, m.gN);
      if (w) {
        tr.dataset.written = w;
        const how = document.createElement('span');
        how.className = 'how';
        how.textContent = w === 'repetition' ? 'by repetition' : 'certain';
        result.push(' \u00b7 ', how);
      }
    } else {
      tr.dataset.result = 'unknown';
      if (sv) colour = searchedRow(n, tr, result, sv);
    }
    const cells = [`${NAME[n.turn][0]}${m.move}`, m.captured || '', known(m) ? signed(m.value) : sv ? searchValue(sv) : '?', result];
    cells.forEach((c, i) => {
      const td = document.createElement('td');
      if (i === 3) td.append(...c);
      else td.textContent = c;
      if (i === 2) td.className = 'v';
      if (i === 3) td.className = 'result';
      if (i >= 2) td.style.color = colour;
      tr.appendChild(td);
    });
    return tr;
  }

  // The moves, best first.
  function drawMoves(n, a) {
    $('result-head').textContent = `result for ${NAME[n.turn]}`;
    const tbody = $('moves').tBodies[0];
    tbody.replaceChildren();
    if (!a) return;
    const best = new Set(a.best);
    // Search values only where the databases give none (a partial answer), and only the
    // search's for this node (stopSearch drops it when the node changes).
    const s = a.partial && state.search ? state.search : null;
    const searched = new Map((s ? s.moves || [] : []).map((x) => [x.move, x]));
    for (const m of ranked(a.moves, searched, s ? s.move : 0)) {
      const tr = moveRow(n, m, best.has(m.move), searched.get(m.move));
      if (s && m.move === s.move) tr.classList.add('search-best');
      tbody.appendChild(tr);
    }
    const legend = $('search-legend');
    legend.hidden = !s;
    if (s)
      legend.textContent = `Purple values are the search's (${s.kind === 'proven' ? 'proven by search' : 'a search estimate'}), ` +
        "not database values: \u2248 an estimate, \u2264 at most (no better than that), \u2606 the search's move.";
  }

  // The line of perfect play, each step a button that plays up to it.
  function drawLine(n, a) {
    const pv = $('pv');
    pv.replaceChildren();
    delete pv.dataset.kind;
    if (a && a.pv) {
      let turn = n.turn;
      a.pv.slice(0, 80).forEach((s, i) => {
        const span = document.createElement('button');
        span.type = 'button';
        span.className = `step ${turn}${s.captured ? ' cap' : ''}`;
        span.dataset.step = i;
        span.textContent = `${i + 1}. ${NAME[turn][0]}${s.move}${s.captured ? ` \u00d7${s.captured}` : ''}`;
        span.title = `play the line up to here: ${NAME[turn]} plays ${s.move} in [${s.position}], worth ${signed(s.value)} to it`;
        span.addEventListener('click', () => playLine(i));
        pv.appendChild(span);
        turn = other(turn);
      });
      const end = document.createElement('span');
      end.className = 'end';
      end.textContent = `${a.pv.length > 80 ? '\u2026 ' : ''}(${a.pv_end}${a.pv.length ? `, ${a.pv.length} plies` : ''})`;
      pv.appendChild(end);
    } else if (a && a.partial && state.search && state.search.pv && state.search.pv.length) {
      // The search's line instead, named as its own: not the line of perfect play.
      const s = state.search;
      let turn = n.turn;
      const line = s.pv.map((m) => {
        const step = `${NAME[turn][0]}${m}`;
        turn = other(turn);
        return step;
      });
      pv.textContent = `not in the databases; the search's line (${s.kind === 'proven' ? 'proven by search' : 'a search estimate'}): ${line.join(' ')}`;
      pv.dataset.kind = 'search';
    } else if (a && a.partial) {
      pv.textContent = 'not known: the position is not in the databases';
    }
    $('pv-title').hidden = false;
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

    drawValue(n, a);
    drawSearch();
    $('analysis').hidden = !a;
    drawMoves(n, a);
    drawLine(n, a);

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
    drawPlayers(a);

    // The game record from the first position, and a link that replays it.
    const rec = record();
    const input = $('record');
    if (document.activeElement !== input) input.value = rec;
    const root = state.history[0];
    const q = linkQuery(root);
    if (rec) q.set('moves', rec);
    const link = $('game-link');
    link.href = `/?${q}`;
    link.textContent = rec ? `${state.index} ${state.index === 1 ? 'move' : 'moves'} from the first position` : 'the first position';
  }

  // "Play the best move" and "Computer plays perfectly" where the databases value the
  // position; outside them the same buttons play the search's move, and say so (never
  // "perfect" for a search's move).
  function drawPlayers(a) {
    const button = $('best');
    const label = $('auto-label');
    const s = state.search;
    if (a && a.partial) {
      const kind = !s ? 'Search' : s.kind === 'proven' ? 'Proven search' : 'Search estimate';
      button.textContent = 'Play the search\'s move';
      button.title = !s ? 'waiting for the search' : s.kind === 'proven'
        ? `the search's move, proven by search (not from the databases)`
        : `the search's move: a search estimate, not a database value`;
      button.dataset.kind = 'search';
      button.disabled = state.loading || !s || !a.moves.length;
      label.textContent = `${kind} plays for`;
    } else {
      button.textContent = 'Play the best move';
      button.title = 'perfect play, from the databases';
      button.dataset.kind = 'database';
      button.disabled = state.loading || !a || !a.moves.length;
      label.textContent = 'Computer plays perfectly for';
    }
  }

  function showProblem(p) {
    state.problem = p;
    drawMessage();
  }

  function showNotice(text) {
    state.notice = text;
    drawMessage();
  }

  // Level numbers as ranges: "13\u201348", "3, 5\u20137".
  function ranges(list) {
    if (!list.length) return 'none';
    const out = [];
    for (let i = 0; i < list.length; ) {
      let j = i;
      while (j + 1 < list.length && list[j + 1] === list[j] + 1) ++j;
      out.push(i === j ? `${list[i]}` : `${list[i]}\u2013${list[j]}`);
      i = j + 1;
    }
    return out.join(', ');
  }

  // A position whose levels are missing: one line saying so, and folded under it (so that
  // on a phone the moves stay in view) which levels would cover it, when values come back,
  // and the commands that build them, the position's own and, for a build of days, one of
  // a night. Unfolded, it stays so for the positions that follow.
  function drawMissing(box, d) {
    const missing = d.missing_levels;
    const plural = missing.length > 1;
    const details = document.createElement('details');
    details.id = 'missing';
    details.open = state.missingOpen;
    details.addEventListener('toggle', () => {
      state.missingOpen = details.open;
    });
    const summary = document.createElement('summary');
    summary.textContent = `Not in the databases: ${plural ? 'levels' : 'level'} ${ranges(missing)} missing`;
    const more = document.createElement('span');
    more.className = 'more';
    more.textContent = ' (how to build them)';
    summary.appendChild(more);
    details.appendChild(summary);
    box.appendChild(details);
    box = details;
    const p = document.createElement('p');
    const upto = missing[0] - 1; // every level 0..upto is there
    const valued = d.moves.filter(known).length;
    p.textContent =
      `This ${d.seeds}-seed position needs the ${d.rules} ${plural ? 'levels' : 'level'} ` +
      `${ranges(missing)}, which ${plural ? 'are' : 'is'} missing. Its moves are playable` +
      (valued ? ` (${valued === d.moves.length ? 'all' : valued} valued: ${valued === d.moves.length ? 'they capture' : 'the captures'} into the levels present)` : '') +
      `; values come back once the game is down to ${upto >= 0 ? `${upto} seeds` : 'the levels built'}` +
      `. ${plural ? 'They are' : 'It is'} built by:`;
    box.appendChild(p);
    const code = document.createElement('code');
    code.id = 'generate';
    code.textContent = d.generate;
    box.appendChild(code);
    // Streamed mode holds 1 byte a position of the largest level (docs/results.md).
    const gib = d.positions / 2 ** 30;
    if (d.seeds > NIGHT_LEVEL && upto < NIGHT_LEVEL) {
      const big = document.createElement('p');
      big.className = 'big';
      big.textContent =
        `Level ${d.seeds} alone holds ${(d.positions / 1e9).toFixed(1)} billion positions: at least ` +
        `${gib.toFixed(gib < 10 ? 1 : 0)} GiB of memory (streamed, 1 byte a position) and hours to days ` +
        `(docs/results.md, Beyond 28; generate says what it needs before it starts). ` +
        `A night on a laptop builds levels up to ${NIGHT_LEVEL}, which give values from ${NIGHT_LEVEL} seeds down:`;
      box.appendChild(big);
      const night = document.createElement('code');
      night.id = 'generate-night';
      night.textContent = d.generate.replace(/--max-seeds \d+/, `--max-seeds ${NIGHT_LEVEL}`);
      box.appendChild(night);
    }
  }

  function drawMessage() {
    const box = $('message');
    const n = node();
    const a = state.answer;
    const p = state.problem;
    box.replaceChildren();
    box.className = 'message';
    const line = (text) => {
      const e = document.createElement('p');
      e.textContent = text;
      box.appendChild(e);
    };
    if (state.notice) {
      line(state.notice);
      box.classList.add('error');
    }
    if (p) {
      line(p.data.error);
      box.classList.add(p.kind === 'info' ? 'info' : 'error');
    }
    if (a && a.partial) {
      drawMissing(box, a);
      box.classList.add('info');
    }
    if (a && a.terminal) {
      box.classList.add('over');
      const seeds = sum(n.pits);
      if (a.partial) {
        line(`Game over: ${NAME[n.turn]} has no move.`);
      } else {
        const mover = (seeds + a.value) / 2;
        const rest = seeds - mover;
        const final = { ...n.captured };
        final[n.turn] += mover;
        final[other(n.turn)] += rest;
        const margin = final.south - final.north;
        line(
          `Game over: ${NAME[n.turn]} has no move. ` +
            (seeds ? `${NAME[n.turn]} takes ${mover}, ${NAME[other(n.turn)]} ${rest} of the seeds left. ` : '') +
            `Final: South ${final.south}, North ${final.north}: ` +
            (margin ? `${margin > 0 ? 'South' : 'North'} wins by ${Math.abs(margin)}.` : 'a draw.'),
        );
      }
    }
    if (box.classList.contains('error')) box.classList.remove('info', 'over');
    box.hidden = !box.childNodes.length;
    const errored = state.notice || (p && p.kind !== 'info');
    document.body.dataset.state = state.loading ? 'loading' : errored ? 'error' : a && a.partial ? 'missing' : 'ready';
    document.body.dataset.over = a && a.terminal ? '1' : '0';
  }

  // The link's query for node `n`: both counts always (absent ones would be inferred).
  function linkQuery(n) {
    const q = new URLSearchParams({ rules: state.rules, position: n.pits.join(' ') });
    if (n.turn !== 'south') q.set('turn', n.turn);
    q.set('south', n.captured.south);
    q.set('north', n.captured.north);
    return q;
  }

  function updateUrl() {
    const url = `/?${linkQuery(node())}`;
    history.replaceState(null, '', url);
    const share = $('share');
    share.href = url;
    share.textContent = new URL(url, location.href).href;
  }

  function render() {
    const n = node();
    const note = $('note');
    note.textContent = state.note || '';
    note.hidden = !state.note;
    document.body.dataset.position = n.pits.join(' ');
    document.body.dataset.turn = n.turn;
    document.body.dataset.ply = state.index;
    document.body.dataset.flipped = state.flipped ? '1' : '0';
    $('flip').setAttribute('aria-pressed', String(state.flipped));
    drawBoard();
    drawPanel();
    drawMessage();
    updateUrl();
  }

  function drawLevels() {
    const info = state.info;
    if (!info) return;
    $('levels').textContent =
      `Databases in ${info.dir}: ` + info.rules.map((r) => `${r} levels ${ranges(info.levels[r] || [])}`).join('; ') + '.';
  }

  // ---- start ---------------------------------------------------------------------------

  // The buttons, the forms and the rules menu.
  function listen() {
    const select = $('rules');
    select.addEventListener('change', () => {
      state.rules = select.value;
      state.notice = null;
      probe();
    });
    $('undo').addEventListener('click', undo);
    $('redo').addEventListener('click', redo);
    $('best').addEventListener('click', playBest);
    $('auto-north').addEventListener('change', scheduleComputer);
    $('auto-south').addEventListener('change', scheduleComputer);
    $('new-game').addEventListener('click', () => {
      state.note = null;
      setRoot({ pits: START.slice(), turn: 'south', captured: { south: 0, north: 0 }, last: null });
    });
    $('setup').addEventListener('submit', (e) => {
      e.preventDefault();
      const p = parsePits($('position').value);
      if (!p) {
        showNotice(`a position is ${2 * P} counts (pits 0..${2 * P - 1}, the side to move first), at most ${TOTAL} seeds`);
        return;
      }
      const c = parseCaptured(sum(p), $('cap-south').value, $('cap-north').value);
      if (c.error) {
        showNotice(`Position not set: ${c.error}.`);
        return;
      }
      document.activeElement.blur();
      state.note = c.note;
      setRoot({ pits: p, turn: $('turn').value, captured: c.captured, last: null });
    });
    $('record-form').addEventListener('submit', (e) => {
      e.preventDefault();
      document.activeElement.blur();
      loadRecord($('record').value);
    });
  }

  // The board's way round is the viewer's, not the position's: kept in the browser, not in
  // links.
  function setUpFlip() {
    try {
      state.flipped = localStorage.getItem(FLIP_KEY) === '1';
    } catch (e) {
      state.flipped = false; // storage refused (a private window): not remembered
    }
    $('flip').addEventListener('click', () => {
      state.flipped = !state.flipped;
      try {
        localStorage.setItem(FLIP_KEY, state.flipped ? '1' : '0');
      } catch (e) {
        // not remembered, still flipped
      }
      render();
    });
  }

  async function start() {
    try {
      const res = await fetch('/api/info');
      state.info = await res.json();
    } catch (e) {
      state.info = null;
    }
    const select = $('rules');
    // The rule sets and what each is, from the server's list (without it, the default).
    const names = state.info ? state.info.rules : [state.rules];
    const about = (state.info && state.info.rules_descriptions) || {};
    for (const r of names) {
      const o = document.createElement('option');
      o.value = r;
      o.textContent = about[r] ? `${r}: ${about[r]}` : r;
      select.appendChild(o);
    }
    const q = new URLSearchParams(location.search);
    state.rules = names.includes(q.get('rules')) ? q.get('rules') : state.info ? state.info.default : 'abapa';
    if (state.info && state.info.pits_per_side && state.info.pits_per_side !== 6) {
      // Another board: its pits, its first position, the form's words.
      P = state.info.pits_per_side;
      START = new Array(2 * P).fill(state.info.seeds_per_pit);
      TOTAL = sum(START);
      const label = $('position').parentElement;
      label.firstChild.textContent = `Pits 0..${2 * P - 1}, side to move first (${P} a side)`;
      $('position').placeholder = START.join(' ');
      for (const id of ['cap-south', 'cap-north']) $(id).max = TOTAL;
    }
    drawLevels();

    listen();
    setUpFlip();

    // The link: a position (checked, never clamped), the captured seeds (checked against
    // the board), then a game record to play from it.
    const problems = [];
    let pits = START;
    if (q.has('position')) {
      pits = parsePits(q.get('position'));
      if (!pits) problems.push(`invalid position '${q.get('position')}': ${2 * P} counts, at most ${TOTAL} seeds`);
    }
    let captured = { south: 0, north: 0 };
    if (pits) {
      const c = parseCaptured(sum(pits), q.get('south'), q.get('north'));
      if (c.error) problems.push(`invalid captured seeds: ${c.error}`);
      else if (q.has('position') || q.has('south') || q.has('north')) {
        captured = c.captured;
        state.note = c.note;
      }
    }
    const turn = q.get('turn') || 'south';
    if (turn !== 'south' && turn !== 'north') problems.push(`invalid turn '${turn}': south or north`);
    state.history = [
      problems.length ? { pits: START.slice(), turn: 'south', captured: { south: 0, north: 0 }, last: null } : { pits, turn, captured, last: null },
    ];
    state.index = 0;
    if (problems.length) {
      state.notice = `This link cannot be shown: ${problems.join('; ')}. Showing the start position instead.`;
      await probe();
    } else if (q.get('moves')) {
      await loadRecord(q.get('moves'));
    } else {
      await probe();
    }
    document.addEventListener('keydown', (e) => {
      if (e.target.closest && e.target.closest('input, select, textarea')) return;
      if (e.key === 'ArrowLeft') undo();
      else if (e.key === 'ArrowRight') redo();
    });
  }

  start();
})();
