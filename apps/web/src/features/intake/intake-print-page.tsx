import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Code, Group, Loader, Text } from '@mantine/core';
import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
import { RETRY_AFTER_POLL_MS } from '@clinicrelay/contracts/constants.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { CdaExplorer } from '../../components/cda-explorer/cda-explorer.tsx';
import { isXmlFileName } from '../../components/cda-explorer/structured-file-tabs.tsx';
import { openPdf } from '../../components/document-viewer/pdf-document.ts';
import { isPrintRequest, type PrintAttachment, type PrintReady, type PrintRequest } from './intake-print.ts';

const RETRY_LIMIT_MS = 20_000;
const PRINT_SCALE = 1.5;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The file with the token the opener posted (this window never reads the token store): the attachment
// call answers 202 with Retry-After while the PDF is still being made; a structured file comes as text.
async function fetchAttachment(request: PrintRequest, attachment: PrintAttachment): Promise<Response> {
  const started = Date.now();
  for (;;) {
    const response = await fetch(`/api/messages/${encodeURIComponent(request.messageId)}/attachments/${encodeURIComponent(attachment.id)}`, {
      headers: { Accept: attachment.structured ? 'text/plain' : 'application/pdf', Authorization: `Bearer ${request.token}` },
    });
    if (!response.ok) throw new Error(`The attachment answered ${response.status}.`);
    if (response.status !== 202 && !response.headers.has('retry-after')) return response;
    if (Date.now() - started > RETRY_LIMIT_MS) throw new Error('The rendition was not ready in time.');
    await wait(RETRY_AFTER_POLL_MS);
  }
}

type PrintDocument = PrintAttachment & ({ kind: 'pdf'; bytes: Uint8Array } | { kind: 'text'; text: string });

async function load(request: PrintRequest): Promise<PrintDocument[]> {
  const documents: PrintDocument[] = [];
  for (const attachment of request.attachments) {
    const response = await fetchAttachment(request, attachment);
    documents.push(
      attachment.structured ? { ...attachment, kind: 'text', text: await response.text() } : { ...attachment, kind: 'pdf', bytes: new Uint8Array(await response.arrayBuffer()) },
    );
  }
  return documents;
}

// Every page of a PDF on its own canvas, one printed page each.
async function drawPdf(bytes: Uint8Array, container: HTMLElement): Promise<void> {
  const document = await openPdf(bytes);
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

/**
 * A structured record printed readable: a C-CDA as the CDA Explorer shows it (header and each section's
 * narrative), any other structured file (HL7 v2) as its text.
 */
function StructuredPrint({ document }: { document: Extract<PrintDocument, { kind: 'text' }> }) {
  return (
    <Box component="article" aria-label={document.fileName} style={{ breakBefore: 'page' }}>
      {isXmlFileName(document.fileName) ? (
        <CdaExplorer xml={document.text} fileName={document.fileName} />
      ) : (
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {document.text}
        </Code>
      )}
    </Box>
  );
}

/** /intake/print: no layout; waits for the opener's job, draws every attachment, then prints. */
export function IntakePrintPage() {
  usePageTitle('Print');
  const [state, setState] = useState<'waiting' | 'rendering' | 'printed' | 'failed'>(() => (window.opener ? 'waiting' : 'failed'));
  const [structured, setStructured] = useState<Extract<PrintDocument, { kind: 'text' }>[]>([]);
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
          const documents = await load(request);
          for (const document of documents) if (document.kind === 'pdf') await drawPdf(document.bytes, container);
          // Structured records follow the PDFs; print once React has drawn them.
          setStructured(documents.filter((d) => d.kind === 'text'));
          setState('printed');
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

  useEffect(() => {
    if (state !== 'printed') return;
    window.addEventListener('afterprint', () => window.close(), { once: true });
    window.print();
  }, [state]);

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
      {structured.map((document) => (
        <StructuredPrint key={document.id} document={document} />
      ))}
    </Box>
  );
}
