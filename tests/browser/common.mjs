// What the owaredb serve tests and scripts/screenshot.sh share: running owaredb, building a
// small database, starting and stopping `owaredb serve`, launching Debian's Chromium.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The flags that keep Chromium off the (closed) network and out of the user's profile.
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let failures = 0;
let passes = 0;

export function check(what, ok, detail = '') {
  if (ok) {
    passes += 1;
  } else {
    failures += 1;
    console.log(`FAIL: ${what}${detail ? `: ${detail}` : ''}`);
  }
  return ok;
}

export function summary(name) {
  console.log(`${name}: ${passes} checks passed, ${failures} failed`);
  return failures ? 1 : 0;
}

// Runs owaredb and returns its standard output; throws unless it exits with a status in
// `ok` (`owaredb probe --batch` exits 1 when a line was in error).
export function owaredb(bin, args, input = undefined, ok = [0]) {
  const r = spawnSync(bin, args, { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  if (!ok.includes(r.status)) throw new Error(`owaredb ${args.join(' ')}: status ${r.status}: ${r.stderr}`);
  return r.stdout;
}

export function probeJson(bin, dir, rules, position, pv = false) {
  const args = ['probe', '--dir', dir, '--rules', rules, '--json'];
  if (pv) args.push('--pv');
  args.push(position);
  return JSON.parse(owaredb(bin, args));
}

export function generate(bin, dir, rules, maxSeeds) {
  owaredb(bin, ['generate', '--rules', rules, '--max-seeds', String(maxSeeds), '--dir', dir, '--threads', '2']);
}

export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

// Starts `owaredb serve ...args --port 0` and resolves to { url, port, proc, output(), stop() }
// once it has printed its URL.
export function startServer(bin, args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, ['serve', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let done = false;
    const timer = setTimeout(() => fail(new Error(`no URL from owaredb serve within 30 s: ${out}`)), 30000);
    function fail(e) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(e);
    }
    // 'close', not 'exit': it comes once the output is read too, so output() then holds the
    // last lines the server printed (after 'exit' they may still be on their way).
    const exited = new Promise((res) => proc.on('close', (code, signal) => res({ code, signal })));
    // Never leave a server behind, whatever happens to the test.
    const reap = () => proc.exitCode === null && proc.signalCode === null && proc.kill('SIGKILL');
    process.on('exit', reap);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/[^\s]+?:(\d+)\//.exec(out);
      if (m && !done) {
        done = true;
        clearTimeout(timer);
        resolve({
          url: m[0],
          port: Number(m[1]),
          proc,
          output: () => out,
          exited,
          // Sends `signal` and resolves to { code, signal, ms } when it has exited.
          async stop(sig = 'SIGTERM') {
            const t0 = Date.now();
            proc.kill(sig);
            const r = await Promise.race([exited, new Promise((res) => setTimeout(() => res(null), 10000))]);
            if (!r) proc.kill('SIGKILL');
            return r ? { ...r, ms: Date.now() - t0 } : { code: null, signal: 'timeout', ms: Date.now() - t0 };
          },
        });
      }
    });
    proc.stderr.on('data', (d) => {
      out += d;
    });
    proc.on('exit', (code) => fail(new Error(`owaredb serve exited (${code}) before printing its URL: ${out}`)));
  });
}

export async function launchChromium(chromium, options = {}) {
  const profile = tempDir('owaredb-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS],
    ...options,
  });
  return {
    context,
    async close() {
      await context.close();
      removeDir(profile);
    },
  };
}
