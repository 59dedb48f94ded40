// The only module that touches PDF.js, so the viewer's tests can replace it (happy-dom has no canvas)
// and the main bundle does not carry the library: it is imported on first use.
import workerUrl from 'pdfjs-dist/legacy/build/pdf.worker.min.mjs?url';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

export interface PageRender {
  /** Resolves once the page is on the canvas, with the scale it was drawn at (1 = 100 %); rejects with a RenderingCancelledException when cancelled. */
  promise: Promise<{ scale: number }>;
  cancel: () => void;
}

export interface PdfDocument {
  readonly pageCount: number;
  /**
   * Draws a 1-based page on the canvas. `scale` multiplies the page's own size (1 = 100 %); with
   * `fitWidth` (CSS pixels) the scale is relative to the width that fits.
   */
  renderPage: (pageNumber: number, canvas: HTMLCanvasElement, options: { scale: number; fitWidth?: number }) => PageRender;
  destroy: () => void;
}

let pdfjs: Promise<PdfJs> | null = null;

// The legacy build: the default one relies on JavaScript added to browsers in 2025 (Map
// getOrInsertComputed), which clinic desktops on older Edge, Chrome or Safari do not have yet.
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((module) => {
    module.GlobalWorkerOptions.workerSrc = workerUrl;
    return module;
  });
  return pdfjs;
}

export const isRenderCancelled = (error: unknown): boolean => error instanceof Error && error.name === 'RenderingCancelledException';

/** Opens PDF bytes (copied: PDF.js hands its buffer to the worker). */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const { getDocument } = await loadPdfJs();
  // The CSP allows neither eval nor WebAssembly: PDF.js's JavaScript decoders are used instead.
  const task = getDocument({ data: bytes.slice(), isEvalSupported: false, useWasm: false, verbosity: 0 });
  const document = await task.promise;
  return {
    pageCount: document.numPages,
    renderPage(pageNumber, canvas, { scale, fitWidth }) {
      let cancelled = false;
      let renderTask: { cancel: () => void } | null = null;
      const promise = (async () => {
        const page = await document.getPage(pageNumber);
        if (cancelled) throw Object.assign(new Error('Rendering cancelled'), { name: 'RenderingCancelledException' });
        const natural = page.getViewport({ scale: 1 });
        const cssScale = fitWidth ? (fitWidth / natural.width) * scale : scale;
        // Drawn at the screen's pixel density, shown at CSS size, so text stays sharp on HiDPI screens.
        const density = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: cssScale * density });
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${Math.floor(viewport.width / density)}px`;
        canvas.style.height = `${Math.floor(viewport.height / density)}px`;
        const render = page.render({ canvas, viewport });
        renderTask = render;
        await render.promise;
        return { scale: cssScale };
      })();
      return {
        promise,
        cancel: () => {
          cancelled = true;
          renderTask?.cancel();
        },
      };
    },
    destroy: () => void task.destroy(),
  };
}
