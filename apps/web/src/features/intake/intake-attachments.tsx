import { useEffect, useState } from 'react';
import { Badge, Box, Button, Checkbox, Group, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title, UnstyledButton } from '@mantine/core';
import type { AttachmentMetaInput } from '@clinicrelay/contracts/attachments.ts';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { formatIsoDate } from '@clinicrelay/contracts/dates.ts';
import { errorDetails } from '../../components/error-details.ts';
import { formatDate } from '../../components/format.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { TruncatedText } from '../../components/truncated-text.tsx';
import { useDocumentTypes, useUpdateAttachments } from './api.ts';
import { isStructured } from './intake-export.ts';
import { intakeSaveTexts } from './intake-text.ts';
import { checkTypedDate, documentDateTexts } from './patient-draft.ts';

export type Attachment = Message['attachments'][number];

export const formatSize = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} k` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
// end-user §3: a documentDate of 1753-01-01 means empty.
const EMPTY_DOCUMENT_DATE = '1753-01-01';
export const documentDateOf = (attachment: Attachment) => {
  const date = attachment.attachmentMeta?.documentDate;
  return date && date !== EMPTY_DOCUMENT_DATE ? date : null;
};

export interface IntakeAttachmentsProps {
  message: Message;
  /** The attachment in the viewer. */
  viewed: Attachment | undefined;
  onView: (attachmentId: string) => void;
  /** Extract patient (feature PatientExtractionAPI): offered on a PDF attachment. */
  onExtract?: (attachment: Attachment) => void;
  extracting: boolean;
  /** Print export mode: name, document type, date and description are read-only (end-user §4). */
  fieldsReadOnly?: boolean;
  /** Whether a typed name, date or description is not saved yet (the page warns before leaving). */
  onUnsavedChange?: (unsaved: boolean) => void;
}

type MetaField = 'documentType' | 'documentDate' | 'documentDateType' | 'documentDescription';
type MetaChange = Partial<Record<MetaField, string | null>>;
type SavedField = keyof typeof intakeSaveTexts.attachmentSaved;
type TypedField = 'fileName' | 'documentDate' | 'documentDescription';

const fieldLabels: Record<SavedField, string> = {
  fileName: 'The attachment name',
  documentType: 'The document type',
  documentDate: 'The document date',
  documentDescription: 'The description',
  isSelected: 'The attachment selection',
};

/**
 * The attachments panel of the Intake strategy (end-user §4): an attachment is editable only while it is
 * selected (checked); structured files (hl7, ccd, cda, xml) are always read-only; in print export mode its
 * fields are read-only too. Every change saves at once and says so.
 */
export function IntakeAttachments({ message, viewed, onView, onExtract, extracting, fieldsReadOnly = false, onUnsavedChange }: IntakeAttachmentsProps) {
  const update = useUpdateAttachments();
  const documentTypes = useDocumentTypes();
  // Typed but not yet saved (or refused) fields of the viewed attachment, and their errors.
  const [unsaved, setUnsaved] = useState<ReadonlySet<TypedField>>(new Set());
  const [errors, setErrors] = useState<Partial<Record<TypedField | 'documentType', string>>>({});
  // The type just chosen, shown until the server's answer replaces it.
  const [chosenType, setChosenType] = useState<{ id: string; value: string | null } | null>(null);
  const attachments = message.attachments;

  useEffect(() => onUnsavedChange?.(unsaved.size > 0), [unsaved, onUnsavedChange]);

  if (attachments.length === 0) {
    return (
      <Stack gap="xs">
        <Title order={2} size="h4">
          Attachments
        </Title>
        <Text c="dimmed">No attachments</Text>
      </Stack>
    );
  }

  const markUnsaved = (field: TypedField, isUnsaved: boolean) =>
    setUnsaved((current) => {
      if (current.has(field) === isUnsaved) return current;
      const next = new Set(current);
      if (isUnsaved) next.add(field);
      else next.delete(field);
      return next;
    });
  const setError = (field: TypedField | 'documentType', error: string | undefined) => setErrors(({ [field]: _old, ...rest }) => (error ? { ...rest, [field]: error } : rest));

  const save = (attachment: Attachment, what: SavedField, change: { isSelected?: boolean; fileName?: string; meta?: MetaChange }) => {
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
      {
        onSuccess: () => {
          notifySuccess(intakeSaveTexts.attachmentSaved[what]);
          if (what !== 'isSelected' && what !== 'documentType') markUnsaved(what, false);
          if (what !== 'isSelected') setError(what, undefined);
        },
        onError: (error) => {
          const { message: reason, modelState } = errorDetails(error);
          const text = Object.values(modelState).flat()[0] ?? reason;
          notifyError(intakeSaveTexts.attachmentNotSaved(fieldLabels[what], text));
          if (what !== 'isSelected') setError(what, text);
        },
        onSettled: () => setChosenType(null),
      },
    );
  };

  const editable = (a: Attachment) => a.isSelected && !isStructured(a);
  const fieldsEditable = (a: Attachment) => editable(a) && !fieldsReadOnly;
  const typeOptions = (documentTypes.data ?? []).map((t) => t.name);
  const viewedDate = viewed ? documentDateOf(viewed) : null;
  const viewedType = chosenType && chosenType.id === viewed?.id ? chosenType.value : (viewed?.attachmentMeta?.documentType ?? null);
  if (viewedType && !typeOptions.includes(viewedType)) typeOptions.push(viewedType);

  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Attachments ({attachments.length})
      </Title>
      <Stack component="ul" gap={4} p={0} m={0} style={{ listStyle: 'none' }} aria-label="Attachments">
        {attachments.map((attachment) => {
          const isViewed = attachment.id === viewed?.id;
          const date = documentDateOf(attachment);
          const details = [formatSize(attachment.sizeInBytes), attachment.attachmentMeta?.documentType, date ? formatDate(date) : null].filter(Boolean).join(' · ');
          return (
            <Group
              component="li"
              key={attachment.id}
              gap="xs"
              wrap="nowrap"
              px="xs"
              py={4}
              bg={isViewed ? 'var(--mantine-primary-color-light)' : undefined}
              style={{ borderRadius: 'var(--mantine-radius-sm)' }}
            >
              <Checkbox
                aria-label={`Include ${attachment.fileName}`}
                checked={attachment.isSelected}
                onChange={(event) => save(attachment, 'isSelected', { isSelected: event.currentTarget.checked })}
              />
              <UnstyledButton aria-current={isViewed ? 'true' : undefined} onClick={() => onView(attachment.id)} style={{ flex: 1, minWidth: 0 }}>
                <TruncatedText text={attachment.fileName} size="sm" fw={isViewed ? 600 : 500} c="var(--mantine-color-anchor)" />
                <Text size="xs" c="dimmed" truncate="end">
                  {details}
                </Text>
              </UnstyledButton>
              {isStructured(attachment) && (
                <Badge size="xs" variant="light" color="gray" style={{ flexShrink: 0 }}>
                  read-only
                </Badge>
              )}
            </Group>
          );
        })}
      </Stack>
      {viewed && (
        <Box>
          <SimpleGrid type="container" cols={{ base: 1, '420px': 2 }} spacing="sm" verticalSpacing="xs">
            <TextInput
              key={`name-${viewed.id}-${viewed.fileName}`}
              label="Name"
              maxLength={255}
              defaultValue={viewed.fileName}
              disabled={!fieldsEditable(viewed)}
              error={errors.fileName}
              onChange={(event) => markUnsaved('fileName', event.currentTarget.value.trim() !== viewed.fileName)}
              onBlur={(event) => {
                const fileName = event.currentTarget.value.trim();
                if (fileName && fileName !== viewed.fileName) save(viewed, 'fileName', { fileName });
                else markUnsaved('fileName', false);
              }}
            />
            <Select
              key={`type-${viewed.id}`}
              label="Document type"
              data={typeOptions}
              value={viewedType}
              disabled={!fieldsEditable(viewed)}
              error={errors.documentType}
              searchable
              allowDeselect={false}
              nothingFoundMessage="No document type matches"
              onChange={(documentType) => {
                if (documentType === viewedType) return;
                setChosenType({ id: viewed.id, value: documentType });
                save(viewed, 'documentType', { meta: { documentType } });
              }}
            />
            <TextInput
              key={`date-${viewed.id}-${viewedDate ?? ''}`}
              label="Document date"
              placeholder="MM/DD/YYYY"
              maxLength={10}
              defaultValue={formatIsoDate(viewedDate)}
              disabled={!fieldsEditable(viewed)}
              error={errors.documentDate}
              onChange={(event) => {
                setError('documentDate', undefined);
                markUnsaved('documentDate', event.currentTarget.value.trim() !== formatIsoDate(viewedDate));
              }}
              onBlur={(event) => {
                const checked = checkTypedDate(event.currentTarget.value, documentDateTexts);
                if (checked.error !== undefined) {
                  setError('documentDate', checked.error);
                  return;
                }
                event.currentTarget.value = checked.shown;
                const documentDate = checked.iso || null;
                if (documentDate !== viewedDate) save(viewed, 'documentDate', { meta: { documentDate, documentDateType: documentDate ? 'selected' : null } });
                else markUnsaved('documentDate', false);
              }}
            />
            <Textarea
              key={`description-${viewed.id}`}
              label="Description"
              maxLength={255}
              rows={2}
              defaultValue={viewed.attachmentMeta?.documentDescription ?? ''}
              disabled={!fieldsEditable(viewed)}
              error={errors.documentDescription}
              styles={{ input: { overflowWrap: 'anywhere' } }}
              onChange={(event) => markUnsaved('documentDescription', (event.currentTarget.value.trim() || null) !== (viewed.attachmentMeta?.documentDescription ?? null))}
              onBlur={(event) => {
                const documentDescription = event.currentTarget.value.trim() || null;
                if (documentDescription !== (viewed.attachmentMeta?.documentDescription ?? null)) save(viewed, 'documentDescription', { meta: { documentDescription } });
                else markUnsaved('documentDescription', false);
              }}
            />
          </SimpleGrid>
          {onExtract && viewed.mimeType === 'application/pdf' && (
            <Group mt="sm">
              <Button variant="default" size="xs" loading={extracting} disabled={!fieldsEditable(viewed)} onClick={() => onExtract(viewed)}>
                Extract patient
              </Button>
            </Group>
          )}
        </Box>
      )}
    </Stack>
  );
}
