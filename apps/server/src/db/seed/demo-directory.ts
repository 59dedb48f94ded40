import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { generateNppesFiles } from '../../modules/directory/generate/generator.ts';
import { importDirectoryFiles } from '../../modules/directory/import/importer.ts';
import { queryRows, type DatabaseHandle } from '../client.ts';

// The demo world's provider directory: NPPES-format files generated with a fixed seed (the same names every time)
// and loaded by the importer, so Find Provider finds people and organizations before anyone imports the real
// monthly file (npm run directory:import). Small enough to load in a second or two on the embedded database.
export const DEMO_DIRECTORY_PROVIDERS = 5_000;

export async function seedDemoDirectory(handle: DatabaseHandle): Promise<number> {
  const [existing] = await queryRows<{ any: boolean }>(handle.db, sql`select exists (select 1 from directory_entries) as "any"`);
  if (existing?.any) return 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-demo-directory-'));
  try {
    const files = await generateNppesFiles({ providers: DEMO_DIRECTORY_PROVIDERS, out: path.join(dir, 'npidata_pfile_demo.csv'), seed: 2026 });
    const summary = await importDirectoryFiles(handle, [files.npidataFile, files.endpointFile]);
    return summary.inserted;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
