import { ActionIcon, Checkbox, CopyButton, FileInput, Group, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  DOWNLOAD_DESCRIPTION_MAX,
  DOWNLOAD_OS_MAX,
  DOWNLOAD_TEXT_MAX,
  DOWNLOAD_VERSION_MAX,
  downloadInput,
  downloadMessages as text,
  downloadPlatform,
  type Download,
  type DownloadInput,
} from '@clinicrelay/contracts/downloads.ts';
import { deleteDownload, downloadKeys, fetchBrandOptions, fetchDownloads, setDownloadActive, updateDownload, uploadDownload } from '../../api/downloads.ts';
import { formatDate, formatFileSize } from '../../components/format.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { notifyError, notifySuccess, withFailureToast } from '../../components/notify.ts';
import { AdminListArea } from '../admin-list-area.tsx';

// back-office-b §5: the entity's own rules, and a file when creating ('You must select a file.'); an edit keeps the
// stored file unless another is chosen. `id` is there on edit (EntityModal adds it).
const formSchema = z
  .object({
    id: z.unknown().optional(),
    displayName: downloadInput.shape.displayName,
    downloadTag: downloadInput.shape.downloadTag,
    name: downloadInput.shape.name,
    description: downloadInput.shape.description,
    brandId: downloadInput.shape.brandId,
    platform: downloadPlatform,
    isDownloadable: z.boolean(),
    downloadOnFree: z.boolean(),
    isVisible: z.boolean(),
    version: downloadInput.shape.version,
    file: z.instanceof(File).nullable(),
  })
  .superRefine((values, context) => {
    if (!values.id && !values.file) context.addIssue({ code: 'custom', path: ['file'], message: text.fileRequired });
  });
type Values = z.output<typeof formSchema>;

const blank: Values = {
  displayName: '',
  downloadTag: '',
  name: '',
  description: '',
  brandId: null,
  platform: { os: '', version: '', supportedVersions: '' },
  isDownloadable: true,
  downloadOnFree: true,
  isVisible: true,
  version: '',
  file: null,
};

const valuesOf = (row: Download): Values => ({
  displayName: row.displayName,
  downloadTag: row.downloadTag,
  name: row.name ?? '',
  description: row.description ?? '',
  brandId: row.brandId,
  platform: { os: row.platform.os ?? '', version: row.platform.version ?? '', supportedVersions: row.platform.supportedVersions ?? '' },
  isDownloadable: row.isDownloadable,
  downloadOnFree: row.downloadOnFree,
  isVisible: row.isVisible,
  version: row.version ?? '',
  file: null,
});

const inputOf = ({ id: _id, file: _file, ...values }: Values): DownloadInput => values;

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

// The absolute link of back-office-b §2's copy-link action.
const absoluteLink = (row: Download) => new URL(row.downloadUrl, window.location.origin).toString();

function ActiveSwitch({ row }: { row: Download }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (active: boolean) => setDownloadActive(row.id, active),
    onSuccess: async (saved) => {
      notifySuccess(saved.isActive ? text.activated : text.deactivated);
      await queryClient.invalidateQueries({ queryKey: downloadKeys.all });
    },
    onError: (_error, active) => notifyError(active ? text.notActivated : text.notDeactivated),
  });
  return (
    <Switch
      aria-label={`Active: ${row.displayName}`}
      checked={toggle.isPending ? !row.isActive : row.isActive}
      disabled={toggle.isPending}
      onChange={(event) => toggle.mutate(event.currentTarget.checked)}
    />
  );
}

function CopyLink({ row }: { row: Download }) {
  if (!row.isDownloadable) return null;
  return (
    <CopyButton value={absoluteLink(row)}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied!' : 'Copy link'} withArrow>
          <ActionIcon variant="subtle" aria-label={`Copy the link of ${row.displayName}`} onClick={copy}>
            <LinkIcon />
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

const flag = (label: string, value: boolean) => (
  <Text size="xs" c={value ? undefined : 'dimmed'}>
    {label}: {yesNo(value)}
  </Text>
);

// Many fields on one row: the name column carries the name and the stored file, the flags share one column.
const columns: ListColumn<Download>[] = [
  {
    key: 'displayName',
    header: 'Display name',
    sortable: true,
    render: (row) => (
      <Stack gap={0}>
        <Text size="sm">{row.displayName}</Text>
        {row.name && (
          <Text size="xs" c="dimmed">
            Name: {row.name}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {row.fileName} · {formatFileSize(row.sizeInBytes)} · {formatDate(row.modifiedDate)}
        </Text>
      </Stack>
    ),
  },
  { key: 'downloadTag', header: 'Download tag', sortable: true },
  { key: 'description', header: 'Description', render: (row) => <Text size="sm" lineClamp={2}>{row.description ?? ''}</Text> },
  { key: 'brand', header: 'Brand', render: (row) => row.brandName ?? 'All brands' },
  {
    key: 'platform',
    header: 'Platform',
    render: (row) => (
      <Stack gap={0}>
        <Text size="sm">{[row.platform.os, row.platform.version].filter(Boolean).join(' ')}</Text>
        {row.platform.supportedVersions && (
          <Text size="xs" c="dimmed">
            {row.platform.supportedVersions}
          </Text>
        )}
      </Stack>
    ),
  },
  { key: 'version', header: 'Version', sortable: true, render: (row) => row.version ?? '' },
  {
    key: 'flags',
    header: 'Availability',
    render: (row) => (
      <Stack gap={0}>
        {flag('Downloadable', row.isDownloadable)}
        {flag('Download on free', row.downloadOnFree)}
        {flag('Visible', row.isVisible)}
      </Stack>
    ),
  },
  { key: 'isActive', header: 'Active', width: 80, render: (row) => <ActiveSwitch row={row} /> },
];

function DownloadFields({ form, row }: { form: UseFormReturnType<Values>; row: Download | null }) {
  const brands = useQuery({ queryKey: [...downloadKeys.all, 'brands'], queryFn: ({ signal }) => fetchBrandOptions(signal), staleTime: 5 * 60_000 });
  return (
    <Stack gap="sm">
      <SimpleGrid cols={2}>
        <TextInput label="Display name" required maxLength={DOWNLOAD_TEXT_MAX} data-autofocus {...form.getInputProps('displayName')} />
        <TextInput label="Download tag" required maxLength={DOWNLOAD_TEXT_MAX} {...form.getInputProps('downloadTag')} />
        <TextInput label="Name" maxLength={DOWNLOAD_TEXT_MAX} {...form.getInputProps('name')} />
        <Select
          label="Brand"
          placeholder="All brands"
          clearable
          data={(brands.data?.items ?? []).map((b) => ({ value: b.id, label: b.name }))}
          {...form.getInputProps('brandId')}
        />
      </SimpleGrid>
      <Textarea label="Description" rows={3} maxLength={DOWNLOAD_DESCRIPTION_MAX} {...form.getInputProps('description')} />
      <SimpleGrid cols={2}>
        <TextInput label="Platform OS" maxLength={DOWNLOAD_OS_MAX} {...form.getInputProps('platform.os')} />
        <TextInput label="Platform version" maxLength={DOWNLOAD_VERSION_MAX} {...form.getInputProps('platform.version')} />
        <TextInput label="Supported versions" maxLength={DOWNLOAD_TEXT_MAX} {...form.getInputProps('platform.supportedVersions')} />
        <TextInput label="Version" maxLength={DOWNLOAD_VERSION_MAX} {...form.getInputProps('version')} />
      </SimpleGrid>
      <Group>
        <Checkbox label="Downloadable" {...form.getInputProps('isDownloadable', { type: 'checkbox' })} />
        <Checkbox label="Download on free" {...form.getInputProps('downloadOnFree', { type: 'checkbox' })} />
        <Checkbox label="Visible" {...form.getInputProps('isVisible', { type: 'checkbox' })} />
      </Group>
      <FileInput
        label="File"
        required={row === null}
        placeholder={row ? `Keep ${row.fileName}` : 'Choose a file'}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear file' }}
        {...form.getInputProps('file')}
      />
    </Stack>
  );
}

/** /admin/downloads (back-office-b §2 "Downloads"): the files published for organizations; create, update, activate, copy link, delete. */
export function AdminDownloadsPage() {
  return (
    <AdminListArea<Download, Values>
      title="Downloads"
      entityName="download"
      queryKey={downloadKeys.all}
      columns={columns}
      fetchPage={fetchDownloads}
      listDefaults={{ sortCol: 'displayName' }}
      form={{ schema: formSchema, blank, valuesOf, fields: (form, row) => <DownloadFields form={form} row={row} /> }}
      create={(values) => withFailureToast(() => uploadDownload(inputOf(values), values.file!), text.notCreated)}
      update={(row, values) => withFailureToast(() => updateDownload(row.id, inputOf(values), values.file), text.notUpdated)}
      remove={(row) => withFailureToast(() => deleteDownload(row.id), text.notDeleted)}
      rowName={(row) => row.displayName}
      rowActions={(row) => <CopyLink row={row} />}
      messages={{ saved: text.saved, deleted: text.deleted }}
      deletePrompt={(name) => `Delete ${name}? Organizations will no longer be able to download it.`}
    />
  );
}

function LinkIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71" />
      <path d="M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71" />
    </svg>
  );
}
