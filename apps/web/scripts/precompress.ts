import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// Text the browser fetches; source maps are never served, images and fonts are compressed already.
const COMPRESSIBLE = /\.(?:m?js|css|html|svg|json|txt|xml|wasm)$/i;
// Below this a compressed copy saves less than a packet; the server then sends the file as it is.
const MIN_BYTES = 1024;

/** Writes a `.br` and a `.gz` beside every compressible file under `dir` (kept only when smaller). */
export async function precompressDir(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number; gzipBytes: number }> {
  const totals = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  await Promise.all(
    entries
      // dist/.vite (the build manifest) is for tools, never served.
      .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name) && !entry.parentPath.split(path.sep).includes('.vite'))
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        if ((await stat(file)).size < MIN_BYTES) return;
        const content = await readFile(file);
        const [br, gz] = await Promise.all([
          brotli(content, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
          gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        totals.files += 1;
        totals.bytes += content.length;
        // A variant that is not smaller is not written: @fastify/static then falls back to the next one.
        if (br.length < content.length) {
          await writeFile(`${file}.br`, br);
          totals.brotliBytes += br.length;
        }
        if (gz.length < content.length) {
          await writeFile(`${file}.gz`, gz);
          totals.gzipBytes += gz.length;
        }
      }),
  );
  return totals;
}

/** Vite plugin: every `vite build` (npm run build, npm start, the e2e setup) leaves pre-compressed assets. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'clinicrelay:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;
      const t = await precompressDir(outDir);
      this.info(`pre-compressed ${t.files} files: ${kb(t.bytes)} → brotli ${kb(t.brotliBytes)}, gzip ${kb(t.gzipBytes)}`);
    },
  };
}
