import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
const busy = () => { const f = readFileSync('/proc/stat','utf8').split('\n')[0].split(/\s+/).slice(1).map(Number); return (f[0]+f[1]+f[2]+f[5]+f[6]) / 100; };
const extra = process.argv.slice(2);
const args = ['--headless','--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync', ...extra];
const b2 = await chromium.launch({ executablePath: '/usr/lib/chromium/chromium', args });
await new Promise(r => setTimeout(r, 2000));
let t = busy();
for (let i = 0; i < 5; i++) { const c = await b2.newContext(); const pg = await c.newPage(); await pg.setContent('<h1>x</h1>'); await c.close(); }
console.log(extra.join(' '), '| 5 contexts cpu s', (busy() - t).toFixed(2));
await b2.close();
