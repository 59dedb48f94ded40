import { loadConfig } from '../../../config.ts';
import { openDatabase } from '../../../db/client.ts';
import { DirectoryImportError, importDirectoryFiles } from './importer.ts';
import { progressBar, summaryLines } from './progress.ts';

// `npm run directory:import -- FILE…`: loads NPPES npidata_pfile and endpoint_pfile files (recognized by their
// header) into DATABASE_URL or the embedded database. Rejected rows are listed and do not fail the run; an unreadable
// or unrecognized file fails it before anything is loaded.
const files = process.argv.slice(2).filter((a) => a !== '--');
if (files.length === 0 || files.some((f) => f === '-h' || f === '--help')) {
  console.error('Usage: npm run directory:import -- FILE…   (NPPES npidata_pfile and/or endpoint_pfile CSV files)');
  process.exit(files.length === 0 ? 2 : 0);
}

const config = loadConfig();
const handle = await openDatabase(config);
let exitCode = 0;
try {
  await handle.migrate();
  const bar = progressBar(process.stderr);
  try {
    const summary = await importDirectoryFiles(handle, files, { onProgress: bar.onProgress });
    bar.end();
    console.log(summaryLines(summary).join('\n'));
  } catch (error) {
    bar.end();
    if (!(error instanceof DirectoryImportError)) throw error;
    console.error(error.message);
    exitCode = 1;
  }
} finally {
  await handle.close();
}
process.exitCode = exitCode;
