import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Group, Loader, Text } from '@mantine/core';
import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
import { RETRY_AFTER_POLL_MS } from '@clinicrelay/contracts/constants.ts';
import { openPdf } from '../../components/document-viewer/pdf-document.ts';
import { isPrintRequest, type PrintReady, type PrintRequest } from './intake-print.ts';

const RETRY_LIMIT_MS = 20_000;
const PRINT_SCALE = 1.5;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The rendition with the token the opener posted (this window never reads the token store): the
// attachment call answers 202 with Retry-After while the PDF is still being made.
async function fetchRendition(request: PrintRequest, attachmentId: string): Promise<Uint8Array> {
  const started = Date.now();
  for (;;) {
    const response = await fetch(`/api/messages/${encodeURIComponent(request.messageId)}/attachments/${encodeURIComponent(attachmentId)}`, {
      headers: { Accept: 'application/pdf', Authorization: `Bearer ${request.token}` },
    });
    if (!response.ok) throw new Error(`The rendition answered ${response.status}.`);
    if (response.status !== 202 && !response.headers.has('retry-after')) return new Uint8Array(await response.arrayBuffer());
    if (Date.now() - started > RETRY_LIMIT_MS) throw new Error('The rendition was not ready in time.');
    await wait(RETRY_AFTER_POLL_MS);
  }
}

/** /intake/print: no layout; waits for the opener's job, draws every page, then prints. */
export function IntakePrintPage() {
  const [state, setState] = useState<'waiting' | 'rendering' | 'printed' | 'failed'>(() => (window.opener ? 'waiting' : 'failed'));
  const pages = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let started = false;
    const onMessage = (event: MessageEvent) => {
      // Only this window's opener, on this origin, may hand it a token.
      if (started || event.origin !== window.location.origin || event.source !== window.opener || !isPrintRequest(event.data)) return;
      started = true;
      const request = event.data;
      setState('rendering');
      void (async () => {
        try {
          const container = pages.current;
          if (!container) throw new Error('No page container.');
          for (const attachmentId of request.attachmentIds) {
            const document = await openPdf(await fetchRendition(request, attachmentId));
            try {
              for (let page = 1; page <= document.pageCount; page += 1) {
                const canvas = window.document.createElement('canvas');
                canvas.setAttribute('role', 'img');
                canvas.setAttribute('aria-label', `Page ${page}`);
                canvas.style.display = 'block';
                canvas.style.breakAfter = 'page';
                container.append(canvas);
                await document.renderPage(page, canvas, { scale: PRINT_SCALE }).promise;
              }
            } finally {
              document.destroy();
            }
          }
          setState('printed');
          window.addEventListener('afterprint', () => window.close(), { once: true });
          window.print();
        } catch (error) {
          console.error('Print failed', error);
          setState('failed');
        }
      })();
    };
    window.addEventListener('message', onMessage);
    const opener = window.opener as Window | null;
    opener?.postMessage({ type: 'printReady' } satisfies PrintReady, window.location.origin);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  return (
    <Box p="md">
      {state === 'failed' && <Alert color="red">{intakeMessages.printFailed}</Alert>}
      {(state === 'waiting' || state === 'rendering') && (
        <Group gap="xs">
          <Loader size="sm" aria-label="Preparing to print" />
          <Text>Preparing to print…</Text>
        </Group>
      )}
      <div ref={pages} aria-label="Pages to print" />
    </Box>
  );
}
