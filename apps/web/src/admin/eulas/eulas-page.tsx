import { useState } from 'react';
import { ActionIcon, Alert, Badge, FileInput, Group, Loader, Modal, Select, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { EULA_VERSION_MAX, eulaAdminMessages as text, eulaCreateFields, eulaTypes, type Eula } from '@clinicrelay/contracts/eulas.ts';
import { fetchBrandOptions } from '../../api/downloads.ts';
import { activateEula, createEula, deleteEula, eulaKeys, fetchEula, fetchEulas } from '../../api/eulas.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { withFailureToast } from '../../components/notify.ts';
import { TermsDocument } from '../../components/terms-document.tsx';
import { AdminListArea } from '../admin-list-area.tsx';

const isHtmlFile = (file: File) => /\.html?$/i.test(file.name);

// back-office-b §5: file, type, brand and version required; HTML files only; version numeric with decimals, max 10.
const formSchema = z
  .object({
    id: z.unknown().optional(),
    type: z
      .enum(eulaTypes)
      .nullable()
      .refine((value) => Boolean(value), text.typeRequired),
    brandId: z
      .string()
      .nullable()
      .refine((value) => !!value, text.brandRequired),
    version: eulaCreateFields.shape.version,
    file: z
      .instanceof(File)
      .nullable()
      .superRefine((file, context) => {
        if (!file) context.addIssue({ code: 'custom', message: text.fileRequired });
        else if (!isHtmlFile(file)) context.addIssue({ code: 'custom', message: text.htmlRequired });
      }),
  });
type Values = z.output<typeof formSchema>;

const blank: Values = { type: null, brandId: null, version: '', file: null };

const rowName = (row: Eula) => `${row.brand.name ?? row.brand.id} ${row.type} ${row.version}`;
// back-office-b §4: delete is hidden while the document is active or has accepting users.
const deletable = (row: Eula) => !row.active && row.totalUsers === 0;

const columns: ListColumn<Eula>[] = [
  { key: 'brand', header: 'Brand', sortable: true, render: (row) => row.brand.name ?? row.brand.id },
  { key: 'version', header: 'Version', sortable: true },
  { key: 'type', header: 'Type', sortable: true },
  {
    key: 'active',
    header: 'Active',
    sortable: true,
    width: 110,
    render: (row) =>
      row.active ? (
        <Badge color="green" variant="light">
          Active
        </Badge>
      ) : (
        <Text size="sm" c="dimmed">
          Inactive
        </Text>
      ),
  },
  { key: 'totalUsers', header: 'Total users', sortable: true, width: 120, render: (row) => row.totalUsers.toLocaleString() },
];

function EulaFields({ form }: { form: UseFormReturnType<Values> }) {
  const brands = useQuery({ queryKey: [...eulaKeys.all, 'brands'], queryFn: ({ signal }) => fetchBrandOptions(signal), staleTime: 5 * 60_000 });
  return (
    <Stack gap="sm">
      <FileInput
        label="File"
        required
        placeholder="Choose an HTML file"
        accept=".html,.htm,text/html"
        clearable
        clearButtonProps={{ 'aria-label': 'Clear file' }}
        data-autofocus
        {...form.getInputProps('file')}
      />
      <SimpleGrid cols={2}>
        <Select label="Type" required placeholder="Choose a type" data={[...eulaTypes]} {...form.getInputProps('type')} />
        <Select
          label="Brand"
          required
          placeholder="Choose a brand"
          data={(brands.data?.items ?? []).map((b) => ({ value: b.id, label: b.name }))}
          {...form.getInputProps('brandId')}
        />
      </SimpleGrid>
      <TextInput label="Version" required placeholder="1.0" maxLength={EULA_VERSION_MAX} {...form.getInputProps('version')} />
    </Stack>
  );
}

/** The View modal: the stored (sanitized) document, shown in the sandboxed frame of TermsDocument. */
function EulaViewModal({ row, onClose }: { row: Eula | null; onClose: () => void }) {
  const document = useQuery({ queryKey: eulaKeys.one(row?.id ?? ''), queryFn: ({ signal }) => fetchEula(row!.id, signal), enabled: row !== null });
  return (
    <Modal opened={row !== null} onClose={onClose} title={row ? `Terms document: ${rowName(row)}` : ''} size="xl">
      {document.isLoading && (
        <Group justify="center" py="xl">
          <Loader size="sm" aria-label="Loading the document" />
        </Group>
      )}
      {document.error && <Alert color="red">{errorDetails(document.error).message}</Alert>}
      {document.data && (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {document.data.fileName} · {document.data.active ? 'Active' : 'Inactive'} · {document.data.totalUsers.toLocaleString()} accepted
          </Text>
          <TermsDocument html={document.data.html ?? ''} title={`Terms document ${rowName(document.data)}`} height="60vh" />
        </Stack>
      )}
    </Modal>
  );
}

/** /admin/eulas (back-office-b §2 "EULAs", shown as TOS): terms documents per brand; create, view, activate, delete. */
export function EulasPage() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: eulaKeys.all });
  const [viewing, setViewing] = useState<Eula | null>(null);
  const [activating, setActivating] = useState<Eula | null>(null);

  const rowActions = (row: Eula) => (
    <>
      <Tooltip label="View" withArrow>
        <ActionIcon variant="subtle" aria-label={`View ${rowName(row)}`} onClick={() => setViewing(row)}>
          <EyeIcon />
        </ActionIcon>
      </Tooltip>
      {!row.active && (
        <Tooltip label="Activate" withArrow>
          <ActionIcon variant="subtle" color="green" aria-label={`Activate ${rowName(row)}`} onClick={() => setActivating(row)}>
            <CheckIcon />
          </ActionIcon>
        </Tooltip>
      )}
    </>
  );

  return (
    <>
      <AdminListArea<Eula, Values>
        title="Terms of service"
        entityName="terms document"
        queryKey={eulaKeys.all}
        columns={columns}
        fetchPage={fetchEulas}
        form={{ schema: formSchema, blank, valuesOf: () => blank, fields: (form) => <EulaFields form={form} /> }}
        // back-office-b §8: 'not created', 'not activated', 'not deleted' are toasts; the form and the confirmations
        // also show the server's reasons.
        create={(values) => withFailureToast(() => createEula({ type: values.type!, brandId: values.brandId!, version: values.version }, values.file!), text.notCreated)}
        remove={(row) => withFailureToast(() => deleteEula(row.id), text.notDeleted)}
        // Documents are never edited (a change is a new version); View and Activate are the row's own actions.
        rowEditable={() => false}
        rowDeletable={deletable}
        rowActions={rowActions}
        rowName={rowName}
        messages={{ saved: text.created, deleted: text.deleted }}
        // The whole name ("ClinicRelay Privacy 3.0"): brand, type and version together tell one document from another.
        deletePrompt={(_shortName, row) => `Delete ${rowName(row)}? This cannot be undone.`}
      />
      <EulaViewModal row={viewing} onClose={() => setViewing(null)} />
      <ConfirmModal
        opened={activating !== null}
        onClose={() => setActivating(null)}
        title="Activate terms document"
        message={
          activating && (
            <Stack gap="xs">
              <Text>
                Activate {activating.type} version {activating.version} for {activating.brand.name ?? activating.brand.id}?
              </Text>
              <Text>{activating.type === 'EULA' ? text.activateConfirm : text.activatePrivacyConfirm}</Text>
            </Stack>
          )
        }
        confirmLabel="Activate"
        successMessage={text.activated}
        onConfirm={async () => {
          if (!activating) return;
          await withFailureToast(() => activateEula(activating.id), text.notActivated);
          await refresh();
        }}
      />
    </>
  );
}

function EyeIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <circle cx="12" cy="12" r="9" />
      <path d="m8 12 3 3 5-6" />
    </svg>
  );
}
