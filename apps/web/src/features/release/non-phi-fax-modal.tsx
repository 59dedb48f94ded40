import { useMemo, useState } from 'react';
import { Alert, Button, FileInput, Group, List, Modal, Select, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { z } from 'zod';
import { todayIsoDate } from '@clinicrelay/contracts/dates.ts';
import { nonPhiFaxMessages, releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { isUsableSource, useDocumentSources } from '../../api/document-sources.ts';
import { errorDetails } from '../../components/error-details.ts';
import { useDeleteMessage, useSaveDraft, useSendMessage, useUploadAttachment } from './api.ts';
import { formatAddress, normalizeAddress } from './release-text.ts';
import { notifySent } from './send-result-notice.tsx';

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

  const form = useForm<NonPhiValues>({
    initialValues: { toFax: '', fromFax: null, subject: '', file: null },
    validate: schemaResolver(nonPhiForm, { sync: true }),
  });

  const fromOptions = useMemo(
    () =>
      (sources.data ?? [])
        .filter((s) => s.address.type === 'Fax' && isUsableSource(s))
        .map((s) => ({ value: s.address.fullAddress, label: formatAddress(s.address.fullAddress) })),
    [sources.data],
  );

  // Each attempt saves its draft, attaches the file and sends. The user never saved this draft, so an
  // attempt that fails at any step (a refused file, a refused send) deletes it: nothing is left in Drafts.
  const submit = async (values: NonPhiValues) => {
    setErrors([]);
    setBusy(true);
    let draftId: string | null = null;
    try {
      const body = { isNonPatient: true, beforeSend: true, toAddress: faxDigits(values.toFax), fromAddress: values.fromFax, subject: values.subject.trim() };
      draftId = (await saveDraft.mutateAsync({ id: null, body })).id;
      const file = values.file!;
      await upload.mutateAsync({
        messageId: draftId,
        file,
        meta: { documentDateType: 'today', documentDate: todayIsoDate(), confidentiality: 'Normal', documentDescription: null },
      });
      const answer = await send.mutateAsync({ id: draftId, action: 'send' });
      draftId = null;
      notifySent(answer);
      onClose();
    } catch (failure) {
      if (draftId !== null) await deleteMessage.mutateAsync(draftId).catch(() => undefined);
      const { message, modelState } = errorDetails(failure);
      setErrors([message, ...Object.values(modelState).flat().filter((text) => text !== message)]);
    } finally {
      setBusy(false);
    }
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
          <Button variant="default" onClick={onClose} disabled={busy}>
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
