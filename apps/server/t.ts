import { PGlite } from '@electric-sql/pglite';
import { openPglite } from './src/db/client.ts';
import { seedDemo } from './src/db/seed/demo.ts';
let t = Date.now();
const c = await PGlite.create(); console.log('create', Date.now()-t); t=Date.now();
const h = openPglite(c); await h.migrate(); console.log('migrate', Date.now()-t); t=Date.now();
await seedDemo(h.db, {demoPassword:'Demo-pass-2026!', env:'test'}); console.log('seed', Date.now()-t); t=Date.now();
const d = await c.dumpDataDir('none'); console.log('dump', Date.now()-t, d.size); t=Date.now();
const c2 = await PGlite.create({loadDataDir: d}); console.log('clone', Date.now()-t); t=Date.now();
