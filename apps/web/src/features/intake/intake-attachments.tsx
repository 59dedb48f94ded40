import { useEffect, useRef, useState } from 'react';
import { Anchor, Badge, Button, Checkbox, Group, Select, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { AttachmentMetaInput } from '@clinicrelay/contracts/attachments.ts';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { AttachmentViewer } from '../../components/document-viewer/attachment-viewer.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { formatDate } from '../../components/format.ts';
import { notifyError } from '../../components/notify.ts';
import { isoToUs, usToIso } from './patient-extraction.ts';
import { intakeKeys, markAttachmentRead, useDocumentTypes, useUpdateAttachments } from './api.ts';
import { isStructured } from './intake-export.ts';

type Attachment = Message['attachments'][number];

const formatSize = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} k` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const EMPTY_DOCUMENT_DATE = '1753-01-01';
// The attachment contract's text for a date it refuses.
const DOCUMENT_DATE_INVALID = 'Document Date is invalid.';

export interface IntakeAttachmentsProps {
  message: Message;
  /** Extract patient (feature PatientExtractionAPI): offered on a PDF attachment. */
  onExtract?: (attachment: Attachment) => void;
  extracting: boolean;
  /** Print export mode: name, document type, date and description are read-only (end-user §4). */
  fieldsReadOnly?: boolean;
}

type MetaChange = Partial<Record<'documentType' | 'documentDate' | 'documentDateType' | 'documentDescription', string | null>>;

/**
 * The attachments panel of the Intake strategy (end-user §4): an attachment is editable only while it is
 * selected (checked); structured files (hl7, ccd, cda, xml) are always read-only; in print export mode its
 * fields are read-only too (pages can still be rotated for printing).
 */
export function IntakeAttachments({ message, onExtract, extracting, fieldsReadOnly = false }: IntakeAttachmentsProps) {
  const queryClient = useQueryClient();
  const update = useUpdateAttachments();
  const documentTypes = useDocumentTypes();
  const [viewedId, setViewedId] = useState<string | null>(null);
  const read = useRef(new Set<string>());
  const attachments = message.attachments;
  const viewed = attachments.find((a) => a.id === viewedId) ?? attachments[0];

  // Each attachment viewed is marked read once (the Activity modal lists the reads).
  useEffect(() => {
    if (!viewed || read.current.has(viewed.id)) return;
    read.current.add(viewed.id);
    markAttachmentRead(message.id, viewed.id).catch(() => undefined);
  }, [message.id, viewed]);

  if (attachments.length === 0) return <Text c="dimmed">No attachments</Text>;

  const save = (attachment: Attachment, change: { isSelected?: boolean; fileName?: string; meta?: MetaChange }) => {
    const meta = attachment.attachmentMeta;
    update.mutate(
      {
        messageId: message.id,
        changes: [
          {
            id: attachment.id,
            ...(change.isSelected === undefined ? {} : { isSelected: change.isSelected }),
            ...(change.fileName === undefined ? {} : { fileName: change.fileName }),
            ...(change.meta === undefined
              ? {}
              : {
                  attachmentMeta: {
                    documentType: meta?.documentType,
                    documentDate: meta?.documentDate,
                    documentDateType: meta?.documentDateType,
                    confidentiality: meta?.confidentiality,
                    documentDescription: meta?.documentDescription,
                    ...change.meta,
                  } as AttachmentMetaInput,
                }),
          },
        ],
      },
      { onError: (error) => notifyError(errorDetails(error).message) },
    );
  };

  const refresh = () => void queryClient.invalidateQueries({ queryKey: intakeKeys.message(message.id) });
  const editable = (a: Attachment) => a.isSelected && !isStructured(a);
  const fieldsEditable = (a: Attachment) => editable(a) && !fieldsReadOnly;
  const typeOptions = (documentTypes.data ?? []).map((t) => t.name);
  const storedDate = viewed?.attachmentMeta?.documentDate;
  const viewedDate = storedDate && storedDate !== EMPTY_DOCUMENT_DATE ? storedDate : null;

  return (
    <Stack>
      <Title order={2} size="h4">
        Attachments
      </Title>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Include</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>Document type</Table.Th>
            <Table.Th>Document date</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {attachments.map((attachment) => {
            const isViewed = attachment.id === viewed?.id;
            const date = attachment.attachmentMeta?.documentDate;
            return (
              <Table.Tr key={attachment.id} bg={isViewed ? 'var(--mantine-primary-color-light)' : undefined}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Include ${attachment.fileName}`}
                    checked={attachment.isSelected}
                    onChange={(event) => save(attachment, { isSelected: event.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Anchor component="button" type="button" aria-current={isViewed ? 'true' : undefined} fw={isViewed ? 600 : undefined} onClick={() => setViewedId(attachment.id)}>
                      {attachment.fileName}
                    </Anchor>
                    {isStructured(attachment) && (
                      <Badge size="xs" variant="light" color="gray">
                        read-only
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{formatSize(attachment.sizeInBytes)}</Table.Td>
                <Table.Td>{attachment.attachmentMeta?.documentType ?? ''}</Table.Td>
                <Table.Td>{date && date !== EMPTY_DOCUMENT_DATE ? formatDate(date) : ''}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {viewed && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              key={`name-${viewed.id}-${viewed.fileName}`}
              label="Name"
              maxLength={255}
              defaultValue={viewed.fileName}
              disabled={!fieldsEditable(viewed)}
              onBlur={(event) => {
                const fileName = event.currentTarget.value.trim();
                if (fileName && fileName !== viewed.fileName) save(viewed, { fileName });
              }}
            />
            <Select
              label="Document type"
              data={typeOptions}
              value={viewed.attachmentMeta?.documentType ?? null}
              disabled={!fieldsEditable(viewed)}
              searchable
              clearable
              onChange={(documentType) => save(viewed, { meta: { documentType } })}
            />
            <TextInput
              key={`date-${viewed.id}-${viewed.attachmentMeta?.documentDate ?? ''}`}
              label="Document date"
              placeholder="MM/DD/YYYY"
              maxLength={10}
              defaultValue={viewedDate ? isoToUs(viewedDate) : ''}
              disabled={!fieldsEditable(viewed)}
              onBlur={(event) => {
                const typed = event.currentTarget.value.trim();
                const documentDate = typed ? usToIso(typed) : null;
                if (typed && !documentDate) {
                  notifyError(DOCUMENT_DATE_INVALID);
                  return;
                }
                if (documentDate !== (viewedDate ?? null)) save(viewed, { meta: { documentDate, documentDateType: documentDate ? 'selected' : null } });
              }}
            />
            <Textarea
              key={viewed.id}
              label="Description"
              maxLength={255}
              rows={1}
              defaultValue={viewed.attachmentMeta?.documentDescription ?? ''}
              disabled={!fieldsEditable(viewed)}
              onBlur={(event) => {
                const documentDescription = event.currentTarget.value.trim() || null;
                if (documentDescription !== (viewed.attachmentMeta?.documentDescription ?? null)) save(viewed, { meta: { documentDescription } });
              }}
            />
          </SimpleGrid>
          {onExtract && viewed.mimeType === 'application/pdf' && (
            <Group>
              <Button variant="default" size="xs" loading={extracting} disabled={!fieldsEditable(viewed)} onClick={() => onExtract(viewed)}>
                Extract patient
              </Button>
            </Group>
          )}
          <section aria-label={`Document viewer: ${viewed.fileName}`}>
            <AttachmentViewer
              messageId={message.id}
              attachment={viewed}
              mode={editable(viewed) ? 'edit' : 'view'}
              onChanged={refresh}
              onPollStatus={refresh}
            />
          </section>
        </>
      )}
    </Stack>
  );
}
