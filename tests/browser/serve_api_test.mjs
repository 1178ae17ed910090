// owaredb serve's HTTP API, no browser needed (node's own http and net):
// - /api/probe answers byte for byte what `owaredb probe --json [--pv]` prints, both rule
//   sets from one directory; /api/batch what `owaredb probe --batch --json` prints;
// - a missing level is 404 with the `owaredb generate` command that builds it;
// - a few hundred malformed requests (bad positions and rules, huge query strings and
//   headers, invalid UTF-8, broken request lines, wrong methods, unknown paths, file paths,
//   oversized bodies and batches) get 4xx answers with JSON messages, and the server still
//   answers a good request afterwards;
// - SIGTERM and SIGINT stop it cleanly (status 0); a port in use is a clear error.
//   node serve_api_test.mjs /path/to/owaredb
import { mkdirSync } from 'node:fs';
import { basename } from 'node:path';
import net from 'node:net';
import { spawnSync } from 'node:child_process';
import { check, generate, owaredb, probeJson, removeDir, startServer, summary, tempDir } from './common.mjs';

const bin = process.argv[2];
if (!bin) {
  console.error('usage: node serve_api_test.mjs /path/to/owaredb');
  process.exit(2);
}

// One HTTP exchange over a raw socket: `request` is sent as it is (bytes), the answer is read
// until the server closes or `ms` pass. Resolves to { status, headers, body, raw }.
function raw(port, request, { ms = 5000, closeAfterSend = false } = {}) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks = [];
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      const split = text.indexOf('\r\n\r\n');
      resolve({
        status: m ? Number(m[1]) : 0,
        headers: split >= 0 ? text.slice(0, split) : text,
        body: split >= 0 ? Buffer.concat(chunks).subarray(Buffer.byteLength(text.slice(0, split + 4), 'latin1')).toString('utf8') : '',
        raw: text,
      });
    };
    const timer = setTimeout(finish, ms);
    socket.on('connect', () => {
      socket.write(request, () => {
        if (closeAfterSend) setTimeout(finish, 200);
      });
    });
    socket.on('data', (d) => chunks.push(d));
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', finish);
  });
}

async function get(base, path) {
  const res = await fetch(base + path);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

function isJson(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const dir = tempDir('owaredb-serve-api-');
try {
  generate(bin, dir, 'abapa', 12);
  generate(bin, dir, 'awari', 10);
  const server = await startServer(bin, ['--dir', dir]);
  const base = server.url.replace(/\/$/, '');
  check('prints the URL on 127.0.0.1', server.url.startsWith('http://127.0.0.1:'), server.url);

  // --- answers equal owaredb probe ---------------------------------------------------
  const positions = [
    '1 1 1 1 1 1 1 1 1 1 1 1', // start position with 1 seed per pit: one ply of search
    '2 0 3 1 0 2 1 0 2 0 1 0',
    '0 0 0 0 0 0 1 0 0 0 0 2', // no move: the game is over
    '0 0 0 0 0 1 0 0 0 0 0 0', // abapa: every move starves, the game ends
    '3 0 0 0 0 4 0 1 1 0 2 1',
    '0,1,0,2,0,0,0,1,1,1,0,3', // commas
  ];
  for (const rules of ['abapa', 'awari']) {
    for (const p of positions) {
      if (rules === 'awari' && p.split(/[ ,]/).map(Number).reduce((a, b) => a + b) > 10) continue;
      for (const pv of [false, true]) {
        const args = ['probe', '--dir', dir, '--rules', rules, '--json', ...(pv ? ['--pv'] : []), p];
        const want = owaredb(bin, args);
        const got = await get(base, `/api/probe?rules=${rules}&position=${encodeURIComponent(p)}${pv ? '&pv=1' : ''}`);
        check(`probe ${rules} [${p}]${pv ? ' pv' : ''} is 200 JSON`, got.status === 200 && got.type === 'application/json', `${got.status} ${got.type}`);
        check(`probe ${rules} [${p}]${pv ? ' pv' : ''} equals owaredb probe --json`, got.body === want, `\n got ${got.body}\nwant ${want}`);
      }
    }
  }
  check('rules default to abapa', (await get(base, '/api/probe?position=2+0+3+1+0+2+1+0+2+0+1+0')).body ===
    owaredb(bin, ['probe', '--dir', dir, '--rules', 'abapa', '--json', '2 0 3 1 0 2 1 0 2 0 1 0']));

  const batchInput = '1 1 1 1 1 1 1 1 1 1 1 1\n\nfoo\r\n0 0 0 0 0 0 1 0 0 0 0 2\n2 0 3 1 0 2 1 0 2 0 1 0\n13 0 0 0 0 0 0 0 0 0 0 0\n\t"\\\x01\n2 0 3 1 0 2 1 0 2 0 1 0';
  for (const pv of [false, true]) {
    // The same records, except that the server names its directory by its own name, not by
    // the absolute path the CLI was given.
    const want = owaredb(bin, ['probe', '--dir', dir, '--rules', 'abapa', '--batch', '--json', ...(pv ? ['--pv'] : [])], batchInput, [0, 1])
      .split(dir).join(basename(dir));
    const res = await fetch(`${base}/api/batch${pv ? '?pv=1' : ''}`, { method: 'POST', body: batchInput, headers: { 'content-type': 'text/plain' } });
    const body = await res.text();
    check(`batch${pv ? ' pv' : ''}: error records carry their status code`, body.includes('"status":"invalid_position"') &&
      body.includes('"status":"not_available"'), body);
    check(`batch${pv ? ' pv' : ''} is 200 JSON Lines`, res.status === 200 && res.headers.get('content-type') === 'application/x-ndjson');
    check(`batch${pv ? ' pv' : ''} equals owaredb probe --batch --json`, body === want, `\n got ${body}\nwant ${want}`);
  }
  {
    const want = owaredb(bin, ['probe', '--dir', dir, '--rules', 'awari', '--batch', '--json'], '1 1 1 1 1 0 0 0 0 0 0 1\n');
    const res = await fetch(`${base}/api/batch?rules=awari`, { method: 'POST', body: '1 1 1 1 1 0 0 0 0 0 0 1\n' });
    check('batch awari equals owaredb probe', (await res.text()) === want);
  }

  // --- a missing level ----------------------------------------------------------------
  {
    const got = await get(base, '/api/probe?rules=abapa&position=4+4+4+1+0+0+0+0+0+0+0+0');
    const j = isJson(got.body) ? JSON.parse(got.body) : {};
    check('a missing level is 404', got.status === 404, got.status);
    check('a missing level names the levels', JSON.stringify(j.missing_levels) === '[13]', got.body);
    check('a missing level gives the generate command, naming the directory without its path',
      j.generate === `owaredb generate --rules abapa --max-seeds 13 --dir ${basename(dir)}`, j.generate);
    // Regression (issue #29): /api/info and 404 bodies showed the server's absolute paths.
    check('a missing level: no absolute path in the answer', !got.body.includes(dir), got.body);
    check('a missing level: the one error object', j.status === 'not_available' && j.position === '4 4 4 1 0 0 0 0 0 0 0 0' &&
      j.rules === 'abapa' && j.seeds === 13 && j.positions === 2464320 && /^not available: /.test(j.error), got.body);
    check('a missing level: the legal moves, valued where their levels are there',
      JSON.stringify(j.moves) === '[{"move":3,"captured":0}]', JSON.stringify(j.moves));
    // The same object as `owaredb probe --json` prints for that position, paths aside.
    const cli = owaredb(bin, ['probe', '--dir', dir, '--rules', 'abapa', '--json', '4 4 4 1 0 0 0 0 0 0 0 0'], undefined, [1]);
    check('a missing level: the object owaredb probe --json prints', got.body === cli.split(dir).join(basename(dir)), `\n got ${got.body}\nwant ${cli}`);
    // A capture into a level that is there is valued; the rest is not.
    const partial = JSON.parse((await get(base, '/api/probe?rules=abapa&position=1+0+0+0+0+2+1+1+3+3+2+0')).body);
    check('a missing level: a capturing move into the levels present is valued',
      JSON.stringify(partial.moves) === JSON.stringify([{ move: 1, captured: 0 }, { move: 6, captured: 4, value: 4 - probeJson(bin, dir, 'abapa', '0 0 3 3 2 0 1 0 0 0 0 0').value }]),
      JSON.stringify(partial));
    const aw = JSON.parse((await get(base, '/api/probe?rules=awari&position=4+4+4+0+0+0+0+0+0+0+0+0')).body);
    check('awari: the missing levels are 11 and 12', JSON.stringify(aw.missing_levels) === '[11,12]', JSON.stringify(aw));
  }
  // --- children=1: each move's position after it (the page plays moves with them, #50) ---
  {
    const p = '3 0 0 0 0 4 0 1 1 0 2 1';
    const plain = JSON.parse(owaredb(bin, ['probe', '--dir', dir, '--rules', 'abapa', '--json', '--pv', p]));
    const got = JSON.parse((await get(base, `/api/probe?position=${encodeURIComponent(p)}&pv=1&children=1`)).body);
    const strip = (a) => ({ ...a, moves: a.moves.map(({ child, ...m }) => m) });
    check('children: otherwise the answer of owaredb probe --json', JSON.stringify(strip(got)) === JSON.stringify(plain), JSON.stringify(got));
    const first = got.moves.find((m) => m.move === got.pv[0].move);
    check('children: the line\'s first move leads to its second position', first.child === (got.pv[1] ?? { position: got.final_position }).position, JSON.stringify(got));
    check('children: each child holds the seeds left and values the move', got.moves.every((m) => {
      const c = probeJson(bin, dir, 'abapa', m.child);
      return c.seeds === got.seeds - m.captured && m.value === m.captured - c.value;
    }), JSON.stringify(got.moves));
    const missing = JSON.parse((await get(base, '/api/probe?position=1+0+0+0+0+2+1+1+3+3+2+0&children=1')).body);
    check('children: a missing level\'s moves too', JSON.stringify(missing.moves.map((m) => m.child)) ===
      '["1 1 3 3 2 0 0 1 0 0 0 2","0 0 3 3 2 0 1 0 0 0 0 0"]', JSON.stringify(missing.moves));
    const bad = await get(base, '/api/probe?position=1+1+1+1+1+1+1+1+1+1+1+1&children=yes');
    check('children=yes is 400', bad.status === 400 && /parameter children/.test(bad.body), bad.body);
  }
  {
    const info = JSON.parse((await get(base, '/api/info')).body);
    check('info lists both rule sets and their levels', JSON.stringify(info.rules) === '["abapa","awari"]' &&
      info.levels.abapa.length === 13 && info.levels.awari.length === 11, JSON.stringify(info));
    check('info says what each rule set is, for the page\'s menu',
      info.rules_descriptions.abapa === 'Oware, the rules of the seeds' &&
      info.rules_descriptions.awari === 'computer Awari (Romein & Bal)', JSON.stringify(info));
    const plain = await fetch(`${base}/api/info`);
    check('without --cors: no Access-Control-Allow-Origin', plain.status === 200 && plain.headers.get('access-control-allow-origin') === null);
    check('info names the directory without its absolute path', info.dir === basename(dir) && !JSON.stringify(info).includes(dir), JSON.stringify(info));
  }
  {
    const page = await get(base, '/');
    check('the page is served', page.status === 200 && page.type.startsWith('text/html') && page.body.includes('owaredb oracle'));
    const js = await get(base, '/app.js');
    check('the script is served', js.status === 200 && js.type.startsWith('text/javascript'));
  }

  // --- malformed requests ---------------------------------------------------------------
  const port = server.port;
  const bad = [];
  const badPositions = ['', 'x', '1 2 3', '1 1 1 1 1 1 1 1 1 1 1 1 1', '-1 0 0 0 0 0 0 0 0 0 0 1', '49 0 0 0 0 0 0 0 0 0 0 0',
    '9 9 9 9 9 9 0 0 0 0 0 0', '1e3 0 0 0 0 0 0 0 0 0 0 0', '0x1 0 0 0 0 0 0 0 0 0 0 0', '99999999999999999999 0 0 0 0 0 0 0 0 0 0 0',
    '1\u00002 0 0 0 0 0 0 0 0 0 0 0', '\u00e9\u00e9', '1;1;1;1;1;1;1;1;1;1;1;1'];
  for (const p of badPositions) bad.push({ what: `position '${p}'`, path: `/api/probe?position=${encodeURIComponent(p)}`, want: 400 });
  for (const p of ['%ff%fe%fd', '%c0%af', '%ed%a0%80', '1%201%20%80', '%00', '%', '%zz', '%e2%82']) bad.push({ what: `raw position ${p}`, path: `/api/probe?position=${p}`, want: 400 });
  for (const r of ['', 'ABAPA', 'oware', '../abapa', '/etc/passwd', '..%2f..%2fetc%2fpasswd', 'abapa%00', '%ff', 'abapa-12.owdb'])
    bad.push({ what: `rules ${r}`, path: `/api/probe?rules=${r}&position=1+1+1+1+1+1+1+1+1+1+1+1`, want: 400 });
  for (const q of ['pv=2', 'pv=yes', 'nothing=1', '', 'position'])
    bad.push({ what: `query ${q}`, path: `/api/probe?${q}`, want: 400 });
  for (const p of ['/nope', '/api', '/api/', '/api/probe/', '/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/index.html/..', '/app.js%00', '/.git/config',
    '/tools/web/app.js', '//etc/passwd', '/%ff', '/api/batch'])
    bad.push({ what: `path ${p}`, path: p, want: p === '/api/batch' ? 405 : 404 });
  for (let n = 1; n <= 40; ++n) bad.push({ what: `long query ${n}`, path: `/api/probe?position=${'1%20'.repeat(200 * n)}`, want: [400, 414] });
  for (let n = 1; n <= 30; ++n) bad.push({ what: `many params ${n}`, path: `/api/probe?${Array.from({ length: 50 * n }, (_, i) => `p${i}=1`).join('&')}&position=1`, want: [400, 414] });

  // Random garbage from a fixed seed: bytes of every kind, percent-encoded, as positions.
  let seed = 12345;
  const random = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let n = 0; n < 150; ++n) {
    const length = 1 + random(60);
    const bytes = Array.from({ length }, () => (random(3) ? random(256) : 0x30 + random(10)));
    const text = bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    bad.push({ what: `garbage position ${n}`, path: `/api/probe?position=${text}`, want: 400 });
  }
  let status400 = 0;
  const results = [];
  const run = async (b) => {
    const r = await raw(port, `GET ${b.path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const wanted = Array.isArray(b.want) ? b.want : [b.want];
    results.push(check(`${b.what}: status ${wanted.join('|')}`, wanted.includes(r.status), `got ${r.status}: ${r.raw.slice(0, 200)}`));
    check(`${b.what}: a JSON message with a status code`, isJson(r.body) && JSON.parse(r.body).error &&
      /^[a-z_]+$/.test(JSON.parse(r.body).status), r.body.slice(0, 200));
    check(`${b.what}: no absolute path in the answer`, !r.body.includes(dir), r.body.slice(0, 200));
    if (r.status === 400) status400 += 1;
  };
  // Raw requests that break HTTP itself.
  const broken = [
    ['request line garbage', 'GARBAGE\r\n\r\n'],
    ['no version', 'GET /\r\n\r\n'],
    ['bad version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n'],
    ['unknown method', 'BREW /api/probe?position=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['lower-case method', 'get / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['invalid UTF-8 in the path', Buffer.concat([Buffer.from('GET /\xff\xfe\xfd?position=\xc0\xaf HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'latin1')])],
    ['control characters', 'GET /api/probe?position=\x01\x02 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['huge header', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100000)}\r\nConnection: close\r\n\r\n`],
    ['huge URI', `GET /api/probe?position=${'9'.repeat(200000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`],
    ['bad chunked body', 'POST /api/batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZZ\r\nabc\r\n0\r\n\r\n'],
    ['PUT', 'PUT /api/probe HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx'],
    ['DELETE', 'DELETE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['PATCH', 'PATCH /api/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'],
    ['OPTIONS', 'OPTIONS /api/probe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['POST to probe', 'POST /api/probe?position=1+1+1+1+1+1+1+1+1+1+1+1 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'],
    ['GET batch', 'GET /api/batch HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
  ];
  const brokenRun = async ([what, request]) => {
    const r = await raw(port, request);
    results.push(check(`${what}: a 4xx answer`, r.status >= 400 && r.status < 500, `got ${r.status}: ${r.raw.slice(0, 200)}`));
    check(`${what}: a JSON message`, isJson(r.body), r.body.slice(0, 200));
  };
  // Bodies that must be refused.
  const bodies = [
    ['batch of 10,001 lines', '1 1 1 1 1 1 1 1 1 1 1 1\n'.repeat(10001), 413, 'text/plain'],
    ['batch of 1,001 lines with pv', '1 1 1 1 1 1 1 1 1 1 1 1\n'.repeat(1001), 413, 'text/plain', '?pv=1'],
    ['batch of 1.5 MB', '1'.repeat(1500000), 413, 'text/plain'],
    ['batch form-encoded above 8 KiB', '1 1 1 1 1 1 1 1 1 1 1 1\n'.repeat(1000), 413, 'application/x-www-form-urlencoded'],
    ['batch of invalid UTF-8', Buffer.from([0x31, 0x20, 0xff, 0xfe, 0x0a, 0xc0, 0xaf]), 400, 'text/plain'],
    ['batch with bad rules', '1 1 1 1 1 1 1 1 1 1 1 1\n', 400, 'text/plain', '?rules=../../etc/passwd'],
    ['batch with bad pv', '1 1 1 1 1 1 1 1 1 1 1 1\n', 400, 'text/plain', '?pv=maybe'],
  ];
  const bodyRun = async ([what, body, want, type, query = '']) => {
    const b = Buffer.isBuffer(body) ? body : Buffer.from(body);
    const r = await raw(port, Buffer.concat([Buffer.from(`POST /api/batch${query} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${b.length}\r\nConnection: close\r\n\r\n`), b]), { ms: 10000 });
    results.push(check(`${what}: status ${want}`, r.status === want, `got ${r.status}: ${r.raw.slice(0, 300)}`));
    check(`${what}: a JSON message`, isJson(r.body) && JSON.parse(r.body).error, r.body.slice(0, 200));
  };
  // Requests that are odd but that a server may accept, or that never end (the client goes
  // away): any answer, or none, as long as the server goes on.
  const halfway = [
    ['many headers', `GET / HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 500 }, (_, i) => `X-H${i}: ${'b'.repeat(100)}\r\n`).join('')}Connection: close\r\n\r\n`],
    ['Content-Length not a number', 'POST /api/batch HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\nConnection: close\r\n\r\n'],
    ['negative Content-Length', 'POST /api/batch HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\nConnection: close\r\n\r\n'],
    ['2 MB announced, 1000 bytes sent', `POST /api/batch HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${2 << 20}\r\n\r\n${'1'.repeat(1000)}`],
    ['headers cut off', 'GET /api/probe?position=1 HTTP/1.1\r\nHost: x\r\nX-A'],
    ['body cut off', 'POST /api/batch HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n1 1 1'],
    ['nothing', ''],
  ];
  const jobs = [...bad.map((b) => () => run(b)), ...broken.map((b) => () => brokenRun(b)), ...bodies.map((b) => () => bodyRun(b)),
    ...halfway.map(([, req]) => () => raw(port, req, { closeAfterSend: true }))];
  // Eight at a time.
  for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((j) => j()));
  console.log(`sent ${jobs.length} malformed requests (${status400} answered 400)`);
  check('a few hundred malformed requests were sent', jobs.length >= 200, jobs.length);
  {
    const good = await get(base, '/api/probe?position=2+0+3+1+0+2+1+0+2+0+1+0');
    check('after all that, a good request still works', good.status === 200 &&
      good.body === owaredb(bin, ['probe', '--dir', dir, '--rules', 'abapa', '--json', '2 0 3 1 0 2 1 0 2 0 1 0']), good.body);
    const page = await get(base, '/');
    check('and the page is still served', page.status === 200);
  }

  // --- stopping -----------------------------------------------------------------------
  {
    const busy = spawnSync(bin, ['serve', '--dir', dir, '--port', String(port)], { encoding: 'utf8', timeout: 10000 });
    check('a port in use is a clear error', busy.status === 1 && /cannot listen on 127\.0\.0\.1 port/.test(busy.stderr), `${busy.status} ${busy.stderr}`);
  }
  const term = await server.stop('SIGTERM');
  check('SIGTERM stops it with status 0', term.code === 0, JSON.stringify(term));
  check('it says it stopped', /stopped \(SIGTERM\)/.test(server.output()), server.output());
  const second = await startServer(bin, ['--dir', dir, '--rules', 'awari']);
  const info = JSON.parse((await get(second.url.replace(/\/$/, ''), '/api/info')).body);
  check('--rules sets the page\'s default rules', info.default === 'awari');
  const int = await second.stop('SIGINT');
  check('SIGINT stops it with status 0', int.code === 0, JSON.stringify(int));
  {
    // --cors: pages of another site may call the API from a browser. Without it no answer
    // carries Access-Control-Allow-Origin and OPTIONS is 405 (the malformed requests above).
    // (The directory given with a trailing slash: still named without its path.)
    const cors = await startServer(bin, ['--dir', `${dir}/`, '--cors', 'https://example.org']);
    const cport = cors.port;
    const probeAnswer = await raw(cport, 'GET /api/probe?position=2+0+3+1+0+2+1+0+2+0+1+0 HTTP/1.1\r\nHost: x\r\nOrigin: https://example.org\r\nConnection: close\r\n\r\n');
    check('--cors: the origin on an API answer', probeAnswer.status === 200 && /\r\naccess-control-allow-origin: https:\/\/example\.org\r\n/i.test(probeAnswer.headers) &&
      /\r\nvary: origin/i.test(probeAnswer.headers), probeAnswer.headers);
    const missing = await raw(cport, 'GET /api/probe?position=4+4+4+1+0+0+0+0+0+0+0+0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    check('--cors: the origin on an error answer too (a page must read why)', missing.status === 404 && /access-control-allow-origin: https:\/\/example\.org/i.test(missing.headers), missing.headers);
    check('a directory given with a trailing slash: named without its path, files as dir/file', !missing.body.includes(dir) &&
      missing.body.includes(`: ${basename(dir)}/abapa-13.owdb`) && missing.body.includes(`--dir ${basename(dir)}"`), missing.body);
    for (const [path, methods] of [['/api/probe', 'GET, HEAD'], ['/api/batch', 'POST'], ['/api/info', 'GET, HEAD']]) {
      const pre = await raw(cport, `OPTIONS ${path} HTTP/1.1\r\nHost: x\r\nOrigin: https://example.org\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\nConnection: close\r\n\r\n`);
      check(`--cors: a preflight OPTIONS ${path} is 204 with what the path takes`, pre.status === 204 &&
        new RegExp(`\r\naccess-control-allow-methods: ${methods}\r\n`, 'i').test(pre.headers) &&
        /\r\naccess-control-allow-headers: content-type\r\n/i.test(pre.headers) &&
        /\r\naccess-control-allow-origin: https:\/\/example\.org\r\n/i.test(pre.headers), pre.raw.slice(0, 400));
    }
    const page = await raw(cport, 'OPTIONS / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    check('--cors: OPTIONS outside the API is still 405', page.status === 405, page.status);
    await cors.stop('SIGTERM');
    const any = await startServer(bin, ['--dir', dir, '--cors', '*']);
    const star = await raw(any.port, 'GET /api/info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    check("--cors '*': any origin, no Vary", /\r\naccess-control-allow-origin: \*\r\n/i.test(star.headers) && !/\r\nvary:/i.test(star.headers), star.headers);
    await any.stop('SIGTERM');
    for (const origin of ['example.org', 'https://a.org\r\nSet-Cookie: x=1', 'ftp://a.org', 'https://', 'https://a.org/path']) {
      const r = spawnSync(bin, ['serve', '--dir', dir, '--port', '0', '--cors', origin], { encoding: 'utf8', timeout: 10000 });
      check(`--cors ${JSON.stringify(origin)} is a usage error`, r.status === 2 && /--cors takes/.test(r.stderr), `${r.status} ${r.stderr}`);
    }
  }
  {
    // Romein & Bal's published files (scores.N), read in place: awari by default, the same
    // answers as from our files.
    const pub = `${dir}/published`;
    mkdirSync(pub);
    owaredb(bin, ['export', '--from', dir, '--to', pub, '--max-seeds', '10']);
    const third = await startServer(bin, ['--dir', pub]);
    const pbase = third.url.replace(/\/$/, '');
    const pinfo = JSON.parse((await get(pbase, '/api/info')).body);
    check('a published directory: awari by default, its levels listed', pinfo.default === 'awari' && pinfo.levels.awari.length === 11, JSON.stringify(pinfo));
    for (const position of ['0 0 1 0 2 0 1 1 0 0 0 0', '1 1 1 1 1 1 1 1 1 0 0 0']) {
      const got = await get(pbase, `/api/probe?rules=awari&pv=1&position=${encodeURIComponent(position)}`);
      const want = JSON.stringify(probeJson(bin, dir, 'awari', position, true));
      check(`a published directory answers ${position} as our files`, got.status === 200 && JSON.stringify(JSON.parse(got.body)) === want, got.body);
    }
    await third.stop('SIGTERM');
  }
  {
    // A directory of a board of 4 pits a side (#28): /api/info says so, with the first
    // position's seeds (the largest game its levels cover: 1 a pit, 8 seeds); the API takes
    // 8 numbers and answers as `owaredb probe` does on that directory; 12 are refused naming
    // both counts; --pits against the files is a usage error.
    const p4 = `${dir}/p4`;
    owaredb(bin, ['generate', '--pits', '4', '--rules', 'abapa', '--max-seeds', '11', '--dir', p4, '--threads', '2']);
    const board = await startServer(bin, ['--dir', p4]);
    const bbase = board.url.replace(/\/$/, '');
    const binfo = JSON.parse((await get(bbase, '/api/info')).body);
    check('a 4-pit directory: /api/info gives the board and its first position', binfo.pits_per_side === 4 &&
      binfo.seeds_per_pit === 1 && binfo.levels.abapa.length === 12 && binfo.levels.awari.length === 0, JSON.stringify(binfo));
    for (const position of ['1 1 1 1 1 1 1 1', '3 3 3 0 0 2 0 0', '0 0 0 0 1 0 0 2', '2 0 1 0 0 1 0 0']) {
      for (const pv of [false, true]) {
        const got = await get(bbase, `/api/probe?position=${encodeURIComponent(position)}${pv ? '&pv=1' : ''}`);
        const want = owaredb(bin, ['probe', '--dir', p4, '--json', ...(pv ? ['--pv'] : []), position]);
        check(`a 4-pit directory answers [${position}]${pv ? ' pv' : ''} as owaredb probe`, got.status === 200 && got.body === want,
          `\n got ${got.body}\nwant ${want}`);
        const answer = JSON.parse(got.body);
        check(`[${position}]: moves 1..4, children of 8 pits`, answer.moves.every((m) => m.move >= 1 && m.move <= 4) &&
          (!pv || answer.pv.every((s) => s.position.split(' ').length === 8)), got.body);
      }
    }
    const batchInput = '1 1 1 1 1 1 1 1\n4 4 4 4 4 4 4 4 4 4 4 4\n3 3 3 0 0 2 0 0\n';
    const res = await fetch(`${bbase}/api/batch`, { method: 'POST', body: batchInput, headers: { 'content-type': 'text/plain' } });
    const want = owaredb(bin, ['probe', '--dir', p4, '--batch', '--json'], batchInput, [1]).split(p4).join(basename(p4));
    check('a 4-pit directory: batch equals owaredb probe --batch', (await res.text()) === want);
    const wrong = await get(bbase, '/api/probe?position=4+4+4+4+4+4+4+4+4+4+4+4');
    check('a 4-pit directory: 12 numbers are 400 naming both counts', wrong.status === 400 &&
      /expected 8 pit counts \(a board of 4 pits a side, as the databases\), got 12/.test(wrong.body), wrong.body);
    const missing = JSON.parse((await get(bbase, '/api/probe?position=2+2+2+2+2+2+0+0')).body);
    check('a 4-pit directory: a missing level\'s command builds that board', missing.generate ===
      `owaredb generate --rules abapa --pits 4 --max-seeds 12 --dir ${basename(p4)}`, JSON.stringify(missing));
    await board.stop('SIGTERM');
    const r = spawnSync(bin, ['serve', '--dir', p4, '--pits', '6', '--port', '0'], { encoding: 'utf8', timeout: 10000 });
    check('--pits 6 on a 4-pit directory is a usage error', r.status === 2 && /4 pits a side/.test(r.stderr), `${r.status} ${r.stderr}`);
  }
  {
    const r = spawnSync(bin, ['serve', '--dir', `${dir}/nope`], { encoding: 'utf8', timeout: 10000 });
    check('a missing directory is a usage error', r.status === 2 && /no database directory/.test(r.stderr), r.stderr);
    const r2 = spawnSync(bin, ['serve', '--dir', dir, '--rules', 'nope'], { encoding: 'utf8', timeout: 10000 });
    check('unknown rules are a usage error', r2.status === 2 && /unknown rules/.test(r2.stderr), r2.stderr);
  }
} finally {
  removeDir(dir);
}
process.exit(summary('serve_api_test'));
