import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ActionIcon, Alert, Box, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { attachmentToasts } from '@clinicrelay/contracts/attachments.ts';
import { notifyError } from '../notify.ts';
import { isRenderCancelled, openPdf, type PdfDocument } from './pdf-document.ts';
import { viewerErrorMessage } from './pdf-errors.ts';
import { saveFile } from '../save-file.ts';

export interface LoadContext {
  signal: AbortSignal;
  /** The file is still being made (202): the viewer says "Processing" until it arrives. */
  onProcessing: () => void;
}

/** Fetches the PDF; a new function (another document or version) loads again. */
export type PdfLoader = (context: LoadContext) => Promise<Uint8Array<ArrayBuffer>>;

export interface DocumentViewerProps {
  load: PdfLoader;
  /** The name a download is saved under. */
  fileName: string;
  /** Each tool shows only when given (end-user §2: the view mode hides rotate, remove, print and download). */
  onRotatePage?: (pageNumber: number) => Promise<void>;
  onRemovePage?: (pageNumber: number) => Promise<void>;
  onRestore?: () => Promise<void>;
  /** Restore is offered only once the document differs from the upload. */
  canRestore?: boolean;
  print?: boolean;
  download?: boolean;
  /** The page frame's maximum height (CSS); a side pane passes what fits beside the page. */
  frameMaxHeight?: string;
}

interface Loaded {
  load: PdfLoader;
  processing?: boolean;
  document?: PdfDocument;
  bytes?: Uint8Array<ArrayBuffer>;
  error?: string;
}

type Zoom = number | 'fit';
const ZOOM_STEP = 1.25;
const MIN_ZOOM = 0.25;
const MAX_ZOOM = 4;
const clampZoom = (value: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, value));

const pdfBlob = (bytes: Uint8Array<ArrayBuffer>) => new Blob([bytes], { type: 'application/pdf' });

function downloadPdf(bytes: Uint8Array<ArrayBuffer>, fileName: string) {
  try {
    saveFile(pdfBlob(bytes), fileName);
  } catch {
    notifyError(attachmentToasts.downloadFailed);
  }
}

// The browser's own print dialog for the PDF, from a hidden frame (the CSP allows blob: frames).
function printPdf(bytes: Uint8Array<ArrayBuffer>) {
  try {
    const url = URL.createObjectURL(pdfBlob(bytes));
    const frame = document.createElement('iframe');
    frame.title = 'Print';
    frame.style.cssText = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0';
    frame.onload = () => {
      try {
        frame.contentWindow?.focus();
        frame.contentWindow?.print();
      } catch {
        notifyError(attachmentToasts.printFailed);
      }
      setTimeout(() => {
        frame.remove();
        URL.revokeObjectURL(url);
      }, 60_000);
    };
    frame.src = url;
    document.body.append(frame);
  } catch {
    notifyError(attachmentToasts.printFailed);
  }
}

/**
 * A PDF shown one page at a time on a canvas, the way a faxed referral is read: page N of M, zoom
 * to fit the width or in steps, and the page tools the caller allows.
 */
export function DocumentViewer({
  load,
  fileName,
  onRotatePage,
  onRemovePage,
  onRestore,
  canRestore = true,
  print,
  download,
  frameMaxHeight = '80vh',
}: DocumentViewerProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [pageNumber, setPageNumber] = useState(1);
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [shownScale, setShownScale] = useState(1);
  const [renderError, setRenderError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const { ref: frameRef, width: frameWidth } = useElementSize();

  // A state from an earlier loader is stale: the new one is loading.
  const current: Loaded = loaded?.load === load ? loaded : { load };
  const { document: pdf, bytes } = current;
  const pageCount = pdf?.pageCount ?? 0;
  const page = Math.min(Math.max(pageNumber, 1), Math.max(pageCount, 1));

  useEffect(() => {
    const controller = new AbortController();
    let opened: PdfDocument | null = null;
    load({ signal: controller.signal, onProcessing: () => setLoaded({ load, processing: true }) })
      .then(async (data) => {
        const document = await openPdf(data);
        if (controller.signal.aborted) document.destroy();
        else {
          opened = document;
          setLoaded({ load, document, bytes: data });
        }
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ load, error: viewerErrorMessage(error) });
      });
    return () => {
      controller.abort();
      opened?.destroy();
    };
  }, [load]);

  // Less the canvas border, so a fitted page never needs a horizontal scroll bar.
  const fitWidth = frameWidth > 4 ? frameWidth - 4 : undefined;
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!pdf || !canvas) return;
    const render = pdf.renderPage(page, canvas, zoom === 'fit' ? { scale: 1, fitWidth } : { scale: zoom });
    render.promise.then(
      (shown) => {
        setShownScale(shown.scale);
        setRenderError(null);
      },
      (error: unknown) => {
        if (!isRenderCancelled(error)) setRenderError(viewerErrorMessage(error));
      },
    );
    return () => render.cancel();
  }, [pdf, page, zoom, fitWidth]);

  // The focused page frame turns pages from the keyboard, as PDF readers do; "Page N of M" announces it.
  const onFrameKey = (event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || pageCount === 0) return;
    const targets: Record<string, number> = { PageDown: page + 1, ArrowRight: page + 1, PageUp: page - 1, ArrowLeft: page - 1, Home: 1, End: pageCount };
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    setPageNumber(Math.min(Math.max(target, 1), pageCount));
  };

  const run = (tool: (pageNumber: number) => Promise<void>) => {
    setBusy(true);
    void tool(page).finally(() => setBusy(false));
  };

  const editing = Boolean(onRotatePage || onRemovePage || onRestore);
  const tools = (
    <Group gap="xs" role="group" aria-label="Document tools">
      {onRotatePage && (
        <Button type="button" size="xs" variant="default" aria-label="Rotate page" disabled={busy || !pdf} onClick={() => run(onRotatePage)}>
          Rotate page
        </Button>
      )}
      {onRemovePage && (
        <Button
          type="button"
          size="xs"
          variant="default"
          aria-label="Remove page"
          disabled={busy || pageCount < 2}
          title={pageCount < 2 ? 'A document must keep at least one page.' : undefined}
          onClick={() => run(onRemovePage)}
        >
          Remove page
        </Button>
      )}
      {onRestore && (
        <Button type="button" size="xs" variant="default" aria-label="Restore original" disabled={busy || !canRestore} onClick={() => run(() => onRestore())}>
          Restore original
        </Button>
      )}
      {print && (
        <Button type="button" size="xs" variant="default" aria-label="Print" disabled={!bytes} onClick={() => bytes && printPdf(bytes)}>
          Print
        </Button>
      )}
      {download && (
        <Button type="button" size="xs" variant="default" aria-label="Download" disabled={!bytes} onClick={() => bytes && downloadPdf(bytes, fileName)}>
          Download
        </Button>
      )}
    </Group>
  );

  let body;
  if (current.error) {
    body = <Alert color="red">{current.error}</Alert>;
  } else if (!pdf) {
    body = (
      <Group gap="xs">
        <Loader size="sm" aria-label={current.processing ? 'Processing' : 'Loading document'} />
        {current.processing && <Text>Processing</Text>}
      </Group>
    );
  } else {
    body = (
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Group gap={4} role="group" aria-label="Pages">
            <ActionIcon type="button" variant="default" aria-label="Previous page" disabled={page <= 1} onClick={() => setPageNumber(page - 1)}>
              ‹
            </ActionIcon>
            <Text size="sm" aria-live="polite" style={{ whiteSpace: 'nowrap' }}>
              Page {page} of {pageCount}
            </Text>
            <ActionIcon type="button" variant="default" aria-label="Next page" disabled={page >= pageCount} onClick={() => setPageNumber(page + 1)}>
              ›
            </ActionIcon>
          </Group>
          <Group gap={4} role="group" aria-label="Zoom">
            <ActionIcon type="button" variant="default" aria-label="Zoom out" disabled={shownScale <= MIN_ZOOM} onClick={() => setZoom(clampZoom(shownScale / ZOOM_STEP))}>
              −
            </ActionIcon>
            <Text size="sm" w={48} ta="center">
              {Math.round(shownScale * 100)}%
            </Text>
            <ActionIcon type="button" variant="default" aria-label="Zoom in" disabled={shownScale >= MAX_ZOOM} onClick={() => setZoom(clampZoom(shownScale * ZOOM_STEP))}>
              +
            </ActionIcon>
            <Button type="button" size="xs" variant={zoom === 'fit' ? 'light' : 'default'} aria-label="Fit to width" aria-pressed={zoom === 'fit'} onClick={() => setZoom('fit')}>
              Fit
            </Button>
          </Group>
        </Group>
        {renderError && <Alert color="red">{renderError}</Alert>}
      </Stack>
    );
  }

  return (
    <Stack gap="xs">
      {(editing || print || download) && tools}
      {body}
      <Box
        ref={frameRef}
        tabIndex={0}
        role="region"
        aria-label={`Pages of ${fileName}`}
        aria-keyshortcuts="PageUp PageDown ArrowLeft ArrowRight Home End"
        onKeyDown={onFrameKey}
        style={{ overflow: 'auto', maxHeight: frameMaxHeight, display: pdf && !current.error ? 'block' : 'none' }}
      >
        <canvas ref={canvasRef} role="img" aria-label={`${fileName}, page ${page}`} style={{ display: 'block', border: '1px solid var(--mantine-color-gray-3)' }} />
      </Box>
    </Stack>
  );
}
