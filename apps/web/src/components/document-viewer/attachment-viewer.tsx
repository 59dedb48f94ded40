import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { Alert, Code, Group, Loader, Text } from '@mantine/core';
import type { z } from 'zod';
import { attachmentToasts, previewMessages } from '@clinicrelay/contracts/attachments.ts';
import { PREVIEW_POLL_MAX, PREVIEW_POLL_MS } from '@clinicrelay/contracts/constants.ts';
import type { attachmentSummary } from '@clinicrelay/contracts/messages.ts';
import { StructuredFileTabs, isXmlFileName } from '../cda-explorer/structured-file-tabs.tsx';
import { errorDetails } from '../error-details.ts';
import { notifyError, notifySuccess } from '../notify.ts';
import { fetchAttachmentPdf, fetchAttachmentText, restoreAttachment, transformAttachment } from './attachment-file.ts';
import { DocumentViewer, type PdfLoader } from './document-viewer.tsx';

export type AttachmentViewerMode = 'edit' | 'view';
export type ViewedAttachment = Pick<z.infer<typeof attachmentSummary>, 'id' | 'fileName' | 'previewAvailable' | 'isRestorable'>;

export interface AttachmentViewerProps {
  messageId: string;
  attachment: ViewedAttachment;
  /** edit: rotate, remove, restore, print and download; view: none of them (end-user §2 "Release screens"). */
  mode: AttachmentViewerMode;
  /** The attachment changed on the server (pages, restore): the caller refreshes its copy of the message. */
  onChanged?: () => void;
  /** While the preview is Processing: asks the caller to fetch the attachment's status again. */
  onPollStatus?: () => void;
  /** Confirms each page change with a toast (Intake, where a change saves at once). */
  confirmSaves?: boolean;
  /** The page frame's maximum height (CSS), for a viewer in a side pane. */
  frameMaxHeight?: string;
}

// Not in the spec: the toasts of confirmSaves.
export const viewerToasts = {
  pageRotated: (page: number) => `Page ${page} rotated and saved.`,
  pageRemoved: (page: number) => `Page ${page} removed and saved.`,
  changeFailed: (message: string) => `The page change was not saved: ${message}`,
} as const;

const pdfName = (fileName: string) => `${fileName.replace(/\.[^./\\]+$/, '')}.pdf`;

/** One attachment of a message in the document viewer, by its preview status (end-user §4 "Attachments"). */
export function AttachmentViewer({ messageId, attachment, mode, onChanged, onPollStatus, confirmSaves, frameMaxHeight }: AttachmentViewerProps) {
  switch (attachment.previewAvailable) {
    case 'NotApplicable':
      return <StructuredFile key={attachment.id} messageId={messageId} attachment={attachment} frameMaxHeight={frameMaxHeight} />;
    case 'Failed':
      return <Alert color="red">{previewMessages.failed}</Alert>;
    case 'Processing':
      return <PreviewProcessing key={attachment.id} onPollStatus={onPollStatus} />;
    default:
      return (
        <PdfAttachment
          key={attachment.id}
          messageId={messageId}
          attachment={attachment}
          mode={mode}
          onChanged={onChanged}
          confirmSaves={confirmSaves}
          frameMaxHeight={frameMaxHeight}
        />
      );
  }
}

function PdfAttachment({ messageId, attachment, mode, onChanged, confirmSaves, frameMaxHeight }: Omit<AttachmentViewerProps, 'onPollStatus'>) {
  // Bumped after each change on the server, so the viewer fetches the new rendition.
  const [version, setVersion] = useState(0);
  const load = useCallback<PdfLoader>(
    ({ signal, onProcessing }) => fetchAttachmentPdf(messageId, attachment.id, { signal, onProcessing }),
    // version is a dependency on purpose: a new loader is what makes the viewer load again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [messageId, attachment.id, version],
  );
  const changed = () => {
    setVersion((v) => v + 1);
    onChanged?.();
  };
  const transform = async (body: { rotations?: { page: number; degrees: number }[]; deletions?: number[] }, done: string) => {
    try {
      await transformAttachment(messageId, attachment.id, { rotations: body.rotations ?? [], deletions: body.deletions ?? [] });
      if (confirmSaves) notifySuccess(done);
      changed();
    } catch (error) {
      const { message } = errorDetails(error);
      notifyError(confirmSaves ? viewerToasts.changeFailed(message) : message);
    }
  };
  const restore = async () => {
    try {
      await restoreAttachment(messageId, attachment.id);
      notifySuccess(attachmentToasts.restored);
      changed();
    } catch {
      notifyError(attachmentToasts.restoreFailed);
    }
  };

  const editing = mode === 'edit';
  return (
    <DocumentViewer
      load={load}
      fileName={pdfName(attachment.fileName)}
      onRotatePage={editing ? (page) => transform({ rotations: [{ page, degrees: 90 }] }, viewerToasts.pageRotated(page)) : undefined}
      onRemovePage={editing ? (page) => transform({ deletions: [page] }, viewerToasts.pageRemoved(page)) : undefined}
      onRestore={editing ? restore : undefined}
      canRestore={attachment.isRestorable}
      print={editing}
      download={editing}
      frameMaxHeight={frameMaxHeight}
    />
  );
}

// Structured records (XML, C-CDA, HL7 v2) have no rendition: the file itself, read-only, no tools.
function StructuredFile({ messageId, attachment, frameMaxHeight = '80vh' }: { messageId: string; attachment: ViewedAttachment; frameMaxHeight?: string }) {
  const [state, setState] = useState<{ text?: string; error?: string }>({});
  useEffect(() => {
    const controller = new AbortController();
    fetchAttachmentText(messageId, attachment.id, { signal: controller.signal }).then(
      (text) => setState({ text }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ error: errorDetails(error).message });
      },
    );
    return () => controller.abort();
  }, [messageId, attachment.id]);

  if (state.error) return <Alert color="red">{state.error}</Alert>;
  if (state.text === undefined) return <Loader size="sm" aria-label="Loading document" />;
  const preview = (
    <Code block tabIndex={0} role="region" aria-label={`Contents of ${attachment.fileName}`} style={{ maxHeight: frameMaxHeight, overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {state.text}
    </Code>
  );
  if (!isXmlFileName(attachment.fileName)) return preview;
  return <StructuredFileTabs xml={state.text} fileName={attachment.fileName} preview={preview} />;
}

function PreviewProcessing({ onPollStatus }: { onPollStatus: (() => void) | undefined }) {
  const [timedOut, setTimedOut] = useState(false);
  const poll = useEffectEvent(() => onPollStatus?.());
  useEffect(() => {
    let polls = 0;
    const timer = setInterval(() => {
      polls += 1;
      poll();
      if (polls >= PREVIEW_POLL_MAX) {
        clearInterval(timer);
        setTimedOut(true);
      }
    }, PREVIEW_POLL_MS);
    return () => clearInterval(timer);
  }, []);

  if (timedOut) return <Alert color="yellow">{attachmentToasts.timedOut}</Alert>;
  return (
    <Group gap="xs">
      <Loader size="sm" aria-label="Processing" />
      <Text>Processing</Text>
      <Text size="sm" c="dimmed">
        {previewMessages.processing}
      </Text>
    </Group>
  );
}
