import { FileInput, PasswordInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import dayjs from 'dayjs';
import { z } from 'zod';
import { CERTIFICATE_FILE_EXTENSIONS, certificateForm, certificateMessages as text, CERTIFICATE_NAME_MAX, type CertificateListItem } from '@clinicrelay/contracts/certificates.ts';
import { certificateKeys, fetchCertificate, fetchCertificates, setCertificateEnabled, uploadCertificate } from '../../api/certificates.ts';
import { errorDetails } from '../../components/error-details.ts';
import { formatDate } from '../../components/format.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { MultiValueCell } from '../../components/multi-value-cell.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { AdminListArea } from '../admin-list-area.tsx';

// An expiry this close is shown in red, so a renewal is imported before Direct traffic stops.
const EXPIRY_WARNING_DAYS = 30;

const formSchema = certificateForm.extend({
  file: z.custom<File | null>((value) => value instanceof File, { message: text.fileRequired }),
});
type Values = z.output<typeof formSchema>;

export const expiresSoon = (notAfter: string, now = new Date()) => dayjs(notAfter).isBefore(dayjs(now).add(EXPIRY_WARNING_DAYS, 'day'));

function EnabledSwitch({ row }: { row: CertificateListItem }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => setCertificateEnabled(row.name, enabled),
    onSuccess: async (saved) => {
      notifySuccess(saved.enabled ? text.enabled : text.disabled);
      await queryClient.invalidateQueries({ queryKey: certificateKeys.all });
    },
    onError: () => notifyError(text.enableFailed),
  });
  return (
    <Switch
      aria-label={`Enabled: ${row.name}`}
      checked={toggle.isPending ? !row.enabled : row.enabled}
      disabled={toggle.isPending}
      onChange={(event) => toggle.mutate(event.currentTarget.checked)}
    />
  );
}

const columns: ListColumn<CertificateListItem>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'thumbprint', header: 'Thumbprint', render: (row) => <Text size="sm" ff="monospace">{row.thumbprint}</Text> },
  {
    key: 'notAfter',
    header: 'Expires',
    width: 120,
    render: (row) => (
      <Text size="sm" c={expiresSoon(row.notAfter) ? 'red' : undefined}>
        {formatDate(row.notAfter)}
      </Text>
    ),
  },
  { key: 'version', header: 'Version', width: 90 },
  { key: 'enabled', header: 'Enabled', width: 100, render: (row) => <EnabledSwitch row={row} /> },
  { key: 'organizations', header: 'Organizations', render: (row) => <MultiValueCell values={row.organizations.map((o) => o.name)} /> },
];

// What the stored certificate says, above the replacement's file input (GET /api/configuration/certificates/{name}).
function StoredCertificate({ name }: { name: string }) {
  const stored = useQuery({ queryKey: certificateKeys.one(name), queryFn: ({ signal }) => fetchCertificate(name, signal) });
  useEffect(() => {
    if (stored.isError) notifyError(text.loadFailed);
  }, [stored.isError]);
  if (!stored.data) return null;
  const { subject, subjectAltNames, notBefore, notAfter, usage } = stored.data;
  return (
    <Text size="sm" c="dimmed">
      {subject} · {[...subjectAltNames.rfc822Names, ...subjectAltNames.dnsNames].join(', ')} · {usage} · {formatDate(notBefore)} to {formatDate(notAfter)}
    </Text>
  );
}

async function save(values: Values, useExistingName: boolean) {
  try {
    return await uploadCertificate({ name: values.name, password: values.password, file: values.file!, useExistingName });
  } catch (failure) {
    // §8: the toast names the server's reason; the form also shows it under its field.
    notifyError(`${text.uploadFailed}: ${errorDetails(failure).message}`);
    throw failure;
  }
}

/** /admin/certificates (back-office-b §2 "Certificates"): the list, and the modal that imports a .pfx or replaces one. */
export function CertificatesPage() {
  return (
    <AdminListArea<CertificateListItem, Values>
      title="Certificates"
      entityName="certificate"
      queryKey={certificateKeys.all}
      columns={columns}
      fetchPage={fetchCertificates}
      form={{
        schema: formSchema,
        blank: { name: '', password: '', file: null },
        valuesOf: (row) => ({ name: row.name, password: '', file: null }),
        fields: (form, row) => (
          <Stack gap="sm">
            {row && <StoredCertificate name={row.name} />}
            {/* §5: the name is the certificate's key, so an edit replaces the certificate under the same name. */}
            <TextInput label="Name" required maxLength={CERTIFICATE_NAME_MAX} disabled={row !== null} data-autofocus={row === null} {...form.getInputProps('name')} />
            <FileInput
              label="File"
              required
              accept={CERTIFICATE_FILE_EXTENSIONS.join(',')}
              placeholder="Choose a .pfx or .p12 file"
              clearable
              clearButtonProps={{ 'aria-label': 'Clear file' }}
              {...form.getInputProps('file')}
            />
            <PasswordInput label="Password" disabled={!form.values.file} {...form.getInputProps('password')} />
          </Stack>
        ),
      }}
      create={(values) => save(values, false)}
      update={(_row, values) => save(values, true)}
      rowName={(row) => row.name}
      messages={{ saved: text.saved, deleted: text.saved }}
    />
  );
}
