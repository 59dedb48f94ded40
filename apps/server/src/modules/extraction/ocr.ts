import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';

// A word read by OCR: its text, tesseract's confidence (0-100) and its box in image pixels (y down).
export interface OcrWord {
  text: string;
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

// A line as tesseract found it (it follows a skewed page's slant): its words and its baseline's ends.
export interface OcrLine {
  words: OcrWord[];
  baseline: { x0: number; y0: number; x1: number; y1: number };
}

export interface OcrPage {
  text: string;
  lines: OcrLine[];
}

// Reads one page image (a PGM/PNG/JPEG file's bytes) scanned at `dpi` (tesseract guesses it, and says so on stderr, when not told).
export interface OcrEngine {
  recognize(image: Uint8Array, dpi?: number): Promise<OcrPage>;
}

// English data from the @tesseract.js-data/eng package: nothing is downloaded, nothing cached on disk.
const langPath = () => path.join(path.dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

let worker: Promise<Worker> | undefined;

// One tesseract worker per process, created on first use (it loads ~10 MB of model data) and reused;
// recognize calls on it run one after another.
export const tesseractOcr: OcrEngine = {
  async recognize(image, dpi) {
    worker ??= createWorker('eng', OEM.LSTM_ONLY, { langPath: langPath(), gzip: true, cacheMethod: 'none' }).catch((error: unknown) => {
      worker = undefined;
      throw error;
    });
    // Word boxes (blocks) as well as the text, so forms and tables are read by row and column like a text layer.
    const ready = await worker;
    // Only resolutions a scan or fax can have; anything else is left to tesseract's estimate.
    await ready.setParameters({ user_defined_dpi: dpi && dpi >= 70 && dpi <= 1200 ? String(dpi) : '0' });
    const { data } = await ready.recognize(Buffer.from(image), { rotateAuto: true }, { text: true, blocks: true });
    const lines = (data.blocks ?? []).flatMap((block) =>
      block.paragraphs.flatMap((paragraph) =>
        paragraph.lines.map((line) => ({
          baseline: { x0: line.baseline.x0, y0: line.baseline.y0, x1: line.baseline.x1, y1: line.baseline.y1 },
          words: line.words.map((w) => ({ text: w.text, confidence: w.confidence, x0: w.bbox.x0, y0: w.bbox.y0, x1: w.bbox.x1, y1: w.bbox.y1 })),
        })),
      ),
    );
    return { text: data.text, lines };
  },
};

// On shutdown (and after tests): the worker thread would otherwise keep the process alive.
export async function terminateOcr(): Promise<void> {
  const running = worker;
  worker = undefined;
  if (running) await (await running.catch(() => undefined))?.terminate();
}
