import { useMemo, useState } from 'react';
import { Alert, Button, FileInput, Group, List, Modal, Select, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { z } from 'zod';
import { nonPhiFaxMessages, releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifySuccess } from '../../components/notify.ts';
import { useDeleteMessage, useDocumentSources, useSaveDraft, useSendMessage, useUploadAttachment } from './api.ts';
import { formatAddress, normalizeAddress, todayIso } from './release-text.ts';

// "Fax numbers reduced to digits" (screens catalog): a leading country code 1 is dropped as the To field does.
const faxDigits = (value: string) => normalizeAddress(value.replace(/\D/g, '')) ?? value.replace(/\D/g, '');

const nonPhiForm = z.object({
  toFax: z
    .string()
    .refine((value) => faxDigits(value) !== '', nonPhiFaxMessages.toRequired)
    .refine((value) => faxDigits(value) === '' || /^\d{10}$/.test(faxDigits(value)), releaseMessages.addressInvalid),
  fromFax: z.string().nullable().refine((value) => Boolean(value), nonPhiFaxMessages.fromRequired),
  subject: z.string().max(255).refine((value) => value.trim() !== '', nonPhiFaxMessages.subjectRequired),
  file: z.instanceof(File).nullable().refine((file) => file !== null, nonPhiFaxMessages.attachmentMissing),
});
type NonPhiValues = z.input<typeof nonPhiForm>;

export interface NonPhiFaxModalProps {
  opened: boolean;
  onClose: () => void;
}

/** Send non-PHI fax: a fax with no patient (a form, a schedule) from one of the organization's fax numbers. */
export function NonPhiFaxModal({ opened, onClose }: NonPhiFaxModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Send non-PHI fax">
      {opened && <NonPhiFaxForm onClose={onClose} />}
    </Modal>
  );
}

function NonPhiFaxForm({ onClose }: { onClose: () => void }) {
  const sources = useDocumentSources();
  const saveDraft = useSaveDraft();
  const upload = useUploadAttachment();
  const send = useSendMessage();
  const deleteMessage = useDeleteMessage();
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  // A refused send keeps its draft and uploaded file, so correcting and resending does not duplicate them.
  const [draftId, setDraftId] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<File | null>(null);

  const form = useForm<NonPhiValues>({
    initialValues: { toFax: '', fromFax: null, subject: '', file: null },
    validate: schemaResolver(nonPhiForm, { sync: true }),
  });

  const fromOptions = useMemo(
    () =>
      (sources.data ?? [])
        .filter((s) => s.address.type === 'Fax' && s.status !== 3 && s.status !== 4)
        .map((s) => ({ value: s.address.fullAddress, label: formatAddress(s.address.fullAddress) })),
    [sources.data],
  );

  const submit = async (values: NonPhiValues) => {
    setErrors([]);
    setBusy(true);
    try {
      const body = { isNonPatient: true, toAddress: faxDigits(values.toFax), fromAddress: values.fromFax, subject: values.subject.trim() };
      const saved = await saveDraft.mutateAsync({ id: draftId, body });
      setDraftId(saved.id);
      const file = values.file!;
      if (uploaded !== file) {
        await upload.mutateAsync({
          messageId: saved.id,
          file,
          meta: { documentDateType: 'today', documentDate: todayIso(), confidentiality: 'Normal', documentDescription: null },
        });
        setUploaded(file);
      }
      const result = await send.mutateAsync({ id: saved.id, action: 'send' });
      setDraftId(null);
      notifySuccess(result.message || releaseMessages.sendSuccess);
      onClose();
    } catch (failure) {
      const { message, modelState } = errorDetails(failure);
      setErrors([message, ...Object.values(modelState).flat().filter((text) => text !== message)]);
    } finally {
      setBusy(false);
    }
  };

  const cancel = () => {
    // A draft left by a refused send is not a message anyone asked to keep.
    if (draftId !== null) deleteMessage.mutate(draftId);
    onClose();
  };

  const [heading, ...reasons] = errors;
  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
      <Stack>
        {heading && (
          <Alert color="red" title={heading}>
            {reasons.length > 0 && (
              <List size="sm">
                {reasons.map((text) => (
                  <List.Item key={text}>{text}</List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        <TextInput label="To fax number" placeholder="ddd-ddd-dddd" withAsterisk {...form.getInputProps('toFax')} />
        <Select
          label="From fax number"
          placeholder="Choose a fax number"
          data={fromOptions}
          withAsterisk
          allowDeselect={false}
          nothingFoundMessage="Your organization has no fax numbers."
          {...form.getInputProps('fromFax')}
        />
        <TextInput label="Subject" withAsterisk maxLength={255} {...form.getInputProps('subject')} />
        <FileInput label="File" placeholder="Choose a file" clearable withAsterisk {...form.getInputProps('file')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Send
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
