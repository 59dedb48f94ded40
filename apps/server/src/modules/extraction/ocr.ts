import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';

// Reads the text of one page image (a PGM/PNG/JPEG file's bytes).
export interface OcrEngine {
  recognize(image: Uint8Array): Promise<string>;
}

// English data from the @tesseract.js-data/eng package: nothing is downloaded, nothing cached on disk.
const langPath = () => path.join(path.dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

let worker: Promise<Worker> | undefined;

// One tesseract worker per process, created on first use (it loads ~10 MB of model data) and reused;
// recognize calls on it run one after another.
export const tesseractOcr: OcrEngine = {
  async recognize(image) {
    worker ??= createWorker('eng', OEM.LSTM_ONLY, { langPath: langPath(), gzip: true, cacheMethod: 'none' }).catch((error: unknown) => {
      worker = undefined;
      throw error;
    });
    const { data } = await (await worker).recognize(Buffer.from(image));
    return data.text;
  },
};

// On shutdown (and after tests): the worker thread would otherwise keep the process alive.
export async function terminateOcr(): Promise<void> {
  const running = worker;
  worker = undefined;
  if (running) await (await running.catch(() => undefined))?.terminate();
}
