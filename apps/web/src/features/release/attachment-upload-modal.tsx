import { useEffect, useState } from 'react';
import { Button, CloseButton, FileInput, Group, Modal, Progress, Radio, Select, Stack, Table, Text, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { z } from 'zod';
import { attachmentMessages, attachmentToasts, MAX_ATTACHMENT_BYTES, MAX_FILE_NAME_LENGTH } from '@clinicrelay/contracts/attachments.ts';
import { parseTypedDate, todayIsoDate } from '@clinicrelay/contracts/dates.ts';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { TruncatedText } from '../../components/truncated-text.tsx';
import { useAttachmentExtensions, useUploadAttachment, type AttachmentMeta } from './api.ts';
import { formatSize } from './release-text.ts';
import { TypedDateInput } from '../../components/typed-date-input.tsx';

const NOTES_MAX = 255;
// end-user §9: file names show cut to 60 characters in the attach modal (the full name in a tooltip).
const SHOWN_NAME_MAX = 60;
const confidentialities = ['Normal', 'Restricted', 'Very Restricted'] as const;
const documentDateTexts = { invalid: 'Enter the document date as MM/DD/YYYY.', future: releaseMessages.documentDateFuture };

// Like Kno2's multi-file attach: the files chosen or dropped together share one set of document details,
// defaulting to Normal confidentiality and each file's own date, so dropping files is one click from
// attached; a file that needs other details is attached on its own.
const uploadForm = z
  .object({
    files: z.array(z.instanceof(File)).refine((files) => files.length > 0, attachmentMessages.noFile),
    confidentiality: z.enum(confidentialities, { message: 'Confidentiality is required.' }).nullable().refine((v) => v !== null, 'Confidentiality is required.'),
    dateOption: z.enum(['original', 'today', 'selected']),
    selectedDate: z.string(),
    notes: z.string().max(NOTES_MAX),
  })
  .superRefine((values, ctx) => {
    if (values.dateOption !== 'selected') return;
    const iso = parseTypedDate(values.selectedDate);
    if (!iso) ctx.addIssue({ code: 'custom', path: ['selectedDate'], message: documentDateTexts.invalid });
    else if (iso > todayIsoDate()) ctx.addIssue({ code: 'custom', path: ['selectedDate'], message: documentDateTexts.future });
  });
type UploadValues = z.input<typeof uploadForm>;

type FileState = { status: 'waiting' } | { status: 'uploading'; fraction: number } | { status: 'attached' } | { status: 'failed'; error: string };

export interface AttachmentUploadModalProps {
  opened: boolean;
  onClose: () => void;
  /** The draft to attach to, saving one first when there is none yet (end-user §4 "Draft lifecycle"). */
  ensureDraft: () => Promise<string>;
  /** Files dropped on the page: they open the modal, or join the files already chosen in it. */
  dropped?: { files: File[]; at: number } | null;
}

/** 'Attach a new file': one or more files with their confidentiality, document date and notes, each uploaded with its own progress. */
export function AttachmentUploadModal({ opened, onClose, ensureDraft, dropped = null }: AttachmentUploadModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Attach a new file" size="lg">
      {opened && <UploadForm onClose={onClose} ensureDraft={ensureDraft} dropped={dropped} />}
    </Modal>
  );
}

function documentDateOf(values: UploadValues, file: File): Pick<AttachmentMeta, 'documentDate' | 'documentDateType'> {
  if (values.dateOption === 'today') return { documentDateType: 'today', documentDate: todayIsoDate() };
  if (values.dateOption === 'selected') return { documentDateType: 'selected', documentDate: parseTypedDate(values.selectedDate) || null };
  // The file's own date, never later than today (a clock ahead of the server's would make it "future").
  const modified = todayIsoDate(new Date(file.lastModified || Date.now()));
  return { documentDateType: 'selected', documentDate: modified > todayIsoDate() ? todayIsoDate() : modified };
}

const extensionOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.')).toLowerCase() : '');

// What is wrong with a file before any of it is sent (end-user §5 "Attachment upload").
function fileProblem(file: File, allowed: string[] | undefined): string | null {
  if (file.name.length > MAX_FILE_NAME_LENGTH) return attachmentMessages.fileNameTooLong;
  if (file.size === 0) return attachmentMessages.empty;
  if (file.size > MAX_ATTACHMENT_BYTES) return attachmentMessages.tooLarge;
  const extension = extensionOf(file.name);
  if (allowed && !allowed.includes(extension)) return attachmentMessages.unsupportedType(extension || undefined);
  return null;
}

function UploadForm({ onClose, ensureDraft, dropped }: Omit<AttachmentUploadModalProps, 'opened'>) {
  const extensions = useAttachmentExtensions();
  const upload = useUploadAttachment();
  const [states, setStates] = useState<Map<File, FileState>>(new Map());
  const [busy, setBusy] = useState(false);
  const form = useForm<UploadValues>({
    initialValues: { files: dropped?.files ?? [], confidentiality: 'Normal', dateOption: 'original', selectedDate: '', notes: '' },
    validate: schemaResolver(uploadForm, { sync: true }),
  });
  const allowed = extensions.data?.map((ext) => `.${ext.replace(/^\./, '').toLowerCase()}`);
  const accept = (allowed ?? []).join(',');

  // Files dropped while the modal is open join the ones already chosen.
  useEffect(() => {
    if (!dropped) return;
    const current = form.getValues().files;
    form.setFieldValue('files', [...current, ...dropped.files.filter((file) => !current.includes(file))]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per drop
  }, [dropped?.at]);

  const setState = (file: File, state: FileState) => setStates((previous) => new Map(previous).set(file, state));

  const submit = async (values: UploadValues) => {
    if (values.files.some((file) => fileProblem(file, allowed) !== null)) return;
    setBusy(true);
    try {
      let messageId: string;
      try {
        messageId = await ensureDraft();
      } catch (failure) {
        notifyError(errorDetails(failure).message);
        return;
      }
      const meta = { confidentiality: values.confidentiality, documentDescription: values.notes || null };
      let failed = 0;
      // One at a time: the server locks the draft for each attachment change.
      for (const file of values.files) {
        if (states.get(file)?.status === 'attached') continue;
        setState(file, { status: 'uploading', fraction: 0 });
        try {
          await upload.mutateAsync({ messageId, file, meta: { ...meta, ...documentDateOf(values, file) }, onProgress: (fraction) => setState(file, { status: 'uploading', fraction }) });
          setState(file, { status: 'attached' });
        } catch (failure) {
          failed += 1;
          const { message } = errorDetails(failure);
          const unsupported = message === attachmentMessages.serverUnsupportedType ? attachmentToasts.uploadFailedUnsupportedSuffix : '';
          notifyError(`${attachmentToasts.uploadFailed(file.name)}${unsupported}`);
          setState(file, { status: 'failed', error: message });
        }
      }
      if (failed > 0) return;
      notifySuccess(values.files.length === 1 ? `'${values.files[0]!.name}' was attached.` : `${values.files.length} files were attached.`);
      onClose();
    } finally {
      setBusy(false);
    }
  };

  const removeFile = (file: File) => form.setFieldValue('files', form.getValues().files.filter((f) => f !== file));
  const files = form.values.files;

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))}>
      <Stack>
        <FileInput
          label="File"
          placeholder="Choose files, or drop them on the page"
          accept={accept || undefined}
          multiple
          withAsterisk
          disabled={busy}
          value={files}
          onChange={(chosen) => form.setFieldValue('files', [...files, ...chosen.filter((file) => !files.includes(file))])}
          error={form.errors.files}
          valueComponent={() => (files.length === 0 ? null : <Text size="sm">{files.length === 1 ? '1 file chosen' : `${files.length} files chosen`}</Text>)}
        />
        {files.length > 0 && (
          <Table layout="fixed" aria-label="Files to attach">
            <Table.Tbody>
              {files.map((file) => (
                <FileRow key={`${file.name}-${file.size}-${file.lastModified}`} file={file} state={states.get(file)} problem={fileProblem(file, allowed)} busy={busy} onRemove={() => removeFile(file)} />
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Select label="Confidentiality" data={[...confidentialities]} withAsterisk allowDeselect={false} {...form.getInputProps('confidentiality')} />
        <Radio.Group label="Document date" {...form.getInputProps('dateOption')}>
          <Group mt="xs">
            <Radio value="original" label="Original file date" />
            <Radio value="today" label="Today" />
            <Radio value="selected" label="Select a date" />
          </Group>
        </Radio.Group>
        {form.values.dateOption === 'selected' && (
          <TypedDateInput
            label="Document date"
            withAsterisk
            value={form.values.selectedDate}
            onChange={(value) => form.setFieldValue('selectedDate', value)}
            error={form.errors.selectedDate}
            texts={documentDateTexts}
            onChecked={(error) => form.setFieldError('selectedDate', error)}
          />
        )}
        <Textarea
          label="Notes"
          rows={3}
          maxLength={NOTES_MAX}
          description={`Characters remaining: ${NOTES_MAX - form.values.notes.length}`}
          {...form.getInputProps('notes')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Attach
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function FileRow({ file, state, problem, busy, onRemove }: { file: File; state: FileState | undefined; problem: string | null; busy: boolean; onRemove: () => void }) {
  const error = problem ?? (state?.status === 'failed' ? state.error : null);
  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={4}>
          <Group gap="xs" wrap="nowrap" justify="space-between">
            <TruncatedText text={file.name} maxChars={SHOWN_NAME_MAX} size="sm" />
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {formatSize(file.size)}
            </Text>
          </Group>
          {state?.status === 'uploading' && (
            <Progress value={Math.round(state.fraction * 100)} size="sm" aria-label={`Uploading ${file.name}`} animated={state.fraction < 1} />
          )}
          {state?.status === 'attached' && (
            <Text size="xs" c="teal.8">
              Attached
            </Text>
          )}
          {error && (
            <Text size="xs" c="red.8" style={{ overflowWrap: 'anywhere' }}>
              {error}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td w={44}>
        {state?.status !== 'attached' && <CloseButton aria-label={`Remove ${file.name}`} disabled={busy} onClick={onRemove} />}
      </Table.Td>
    </Table.Tr>
  );
}
