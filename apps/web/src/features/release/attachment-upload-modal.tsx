import { Button, FileInput, Group, Modal, Radio, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { z } from 'zod';
import { attachmentMessages, MAX_ATTACHMENT_BYTES } from '@clinicrelay/contracts/attachments.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { useAttachmentExtensions, useUploadAttachment } from './api.ts';
import { todayIso, toIsoDate, truncateName } from './release-text.ts';

const NOTES_MAX = 255;
const confidentialities = ['Normal', 'Restricted', 'Very Restricted'] as const;

const uploadForm = z
  .object({
    file: z.instanceof(File, { message: attachmentMessages.noFile }).nullable().refine((file) => file !== null, attachmentMessages.noFile),
    confidentiality: z.enum(confidentialities, { message: 'Confidentiality is required.' }).nullable().refine((v) => v !== null, 'Confidentiality is required.'),
    dateOption: z.enum(['original', 'today', 'selected']),
    selectedDate: z.string(),
    notes: z.string().max(NOTES_MAX),
  })
  .superRefine((values, ctx) => {
    if (values.dateOption !== 'selected') return;
    const iso = toIsoDate(values.selectedDate);
    if (!iso) ctx.addIssue({ code: 'custom', path: ['selectedDate'], message: 'Enter the document date as MM/DD/YYYY.' });
    else if (iso > todayIso()) ctx.addIssue({ code: 'custom', path: ['selectedDate'], message: 'Document Date must be equal or less than today.' });
  })
  .superRefine((values, ctx) => {
    const file = values.file;
    if (file === null) return;
    if (file.size === 0) ctx.addIssue({ code: 'custom', path: ['file'], message: attachmentMessages.empty });
    else if (file.size > MAX_ATTACHMENT_BYTES) ctx.addIssue({ code: 'custom', path: ['file'], message: attachmentMessages.tooLarge });
  });
type UploadValues = z.input<typeof uploadForm>;

export interface AttachmentUploadModalProps {
  opened: boolean;
  onClose: () => void;
  /** The draft to attach to, saving one first when there is none yet (end-user §4 "Draft lifecycle"). */
  ensureDraft: () => Promise<string>;
}

/** 'Attach a new file': one file with its confidentiality, document date and notes. */
export function AttachmentUploadModal({ opened, onClose, ensureDraft }: AttachmentUploadModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Attach a new file">
      {opened && <UploadForm onClose={onClose} ensureDraft={ensureDraft} />}
    </Modal>
  );
}

function documentDateOf(values: UploadValues, file: File) {
  if (values.dateOption === 'today') return { documentDateType: 'today' as const, documentDate: todayIso() };
  if (values.dateOption === 'selected') return { documentDateType: 'selected' as const, documentDate: toIsoDate(values.selectedDate) || null };
  const modified = new Date(file.lastModified || Date.now());
  return { documentDateType: 'selected' as const, documentDate: modified.toISOString().slice(0, 10) };
}

function UploadForm({ onClose, ensureDraft }: Omit<AttachmentUploadModalProps, 'opened'>) {
  const extensions = useAttachmentExtensions();
  const upload = useUploadAttachment();
  const form = useForm<UploadValues>({
    initialValues: { file: null, confidentiality: 'Normal', dateOption: 'original', selectedDate: '', notes: '' },
    validate: schemaResolver(uploadForm, { sync: true }),
  });
  const accept = (extensions.data ?? []).map((ext) => `.${ext.replace(/^\./, '')}`).join(',');

  const submit = async (values: UploadValues) => {
    const file = values.file!;
    const extension = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.')).toLowerCase() : '';
    const allowed = extensions.data?.map((ext) => `.${ext.replace(/^\./, '').toLowerCase()}`);
    if (allowed && !allowed.includes(extension)) {
      form.setFieldError('file', attachmentMessages.unsupportedType(extension || undefined));
      return;
    }
    try {
      const messageId = await ensureDraft();
      await upload.mutateAsync({
        messageId,
        file,
        meta: { ...documentDateOf(values, file), confidentiality: values.confidentiality, documentDescription: values.notes || null },
      });
      notifySuccess(`'${file.name}' was attached.`);
      onClose();
    } catch (failure) {
      notifyError(`An error occurred while uploading '${file.name}'. ${errorDetails(failure).message}`);
    }
  };

  const fileName = form.values.file?.name;
  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))}>
      <Stack>
        <FileInput label="File" placeholder="Choose a file" accept={accept || undefined} clearable withAsterisk {...form.getInputProps('file')} />
        {fileName && (
          <Text size="sm" title={fileName}>
            {truncateName(fileName)}
          </Text>
        )}
        <Select label="Confidentiality" data={[...confidentialities]} withAsterisk allowDeselect={false} {...form.getInputProps('confidentiality')} />
        <Radio.Group label="Document date" {...form.getInputProps('dateOption')}>
          <Group mt="xs">
            <Radio value="original" label="Original file date" />
            <Radio value="today" label="Today" />
            <Radio value="selected" label="Select a date" />
          </Group>
        </Radio.Group>
        {form.values.dateOption === 'selected' && <TextInput label="Document date" placeholder="MM/DD/YYYY" {...form.getInputProps('selectedDate')} />}
        <Textarea
          label="Notes"
          rows={3}
          maxLength={NOTES_MAX}
          description={`Characters remaining: ${NOTES_MAX - form.values.notes.length}`}
          {...form.getInputProps('notes')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={upload.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={upload.isPending}>
            Attach
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
