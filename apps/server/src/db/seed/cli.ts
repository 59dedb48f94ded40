import { loadConfig } from '../../config.ts';
import { openDatabase } from '../client.ts';
import { demoSignInLines, seedDemo } from './demo.ts';

// `npm run seed:demo`: seeds the demo world into DATABASE_URL or the embedded database (idempotent).
const config = loadConfig();
if (config.env === 'production') {
  console.error('Refusing to seed the demo world in production mode.');
  process.exit(1);
}
const handle = await openDatabase(config);
try {
  await handle.migrate();
  await seedDemo(handle.db, config);
  console.log(demoSignInLines(config.demoPassword).join('\n'));
} finally {
  await handle.close();
}
