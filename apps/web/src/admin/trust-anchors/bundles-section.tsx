import { Button, FileInput, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  BUNDLE_FILE_EXTENSIONS,
  REFRESH_INTERVAL_MINUTES,
  TRUST_NAME_MAX,
  TRUST_URL_MAX,
  refreshIntervalMinutes,
  trustAnchorMessages as text,
  trustDomain,
  trustName,
  trustUrl,
  withDirection,
  type TrustBundle,
} from '@clinicrelay/contracts/trust-anchors.ts';
import { errorDetails } from '../../components/error-details.ts';
import { formatDateTime } from '../../components/format.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { AdminListArea } from '../admin-list-area.tsx';
import { addBundle, deleteBundle, fetchBundles, refreshBundle, trustKeys, updateBundle } from './api.ts';
import { DirectionBadges, DomainCell, ScopeFields } from './scope-fields.tsx';

const HOUR = 60;
// The usual choices; a bundle saved with another interval through the API keeps it as an extra choice.
const INTERVAL_CHOICES = [15, 30, HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR, 168 * HOUR];

/** "Every 15 minutes", "Every hour", "Every 24 hours". */
export function formatInterval(minutes: number): string {
  if (minutes % HOUR !== 0) return `Every ${minutes} minutes`;
  const hours = minutes / HOUR;
  return hours === 1 ? 'Every hour' : `Every ${hours} hours`;
}

// Source: a URL the server reads at once and then every interval, or a file (read once). The EntityModal puts the
// edited row's id in the values, and a file is asked for when adding only.
const formSchema = withDirection(
  z.object({
    name: trustName,
    source: z.enum(['url', 'file']),
    url: trustUrl,
    file: z.custom<File | null>((value) => value === null || value instanceof File),
    domain: trustDomain,
    incoming: z.boolean(),
    outgoing: z.boolean(),
    refreshIntervalMinutes,
    id: z.unknown().optional(),
  }),
).superRefine((values, context) => {
  if (values.source === 'url' && !values.url) context.addIssue({ code: 'custom', message: text.urlRequired, path: ['url'] });
  if (values.source === 'file' && values.id == null && !(values.file instanceof File)) context.addIssue({ code: 'custom', message: text.bundleFileRequired, path: ['file'] });
});
type Values = z.output<typeof formSchema>;

function RefreshButton({ row }: { row: TrustBundle }) {
  const queryClient = useQueryClient();
  const refresh = useMutation({
    mutationFn: () => refreshBundle(row.id),
    onSuccess: async (bundle) => {
      if (bundle.lastError) notifyError(`${text.refreshFailed}: ${bundle.lastError}`);
      else notifySuccess(text.bundleRefreshed);
      await queryClient.invalidateQueries({ queryKey: trustKeys.all });
    },
    onError: (failure) => notifyError(`${text.refreshFailed}: ${errorDetails(failure).message}`),
  });
  return (
    <Button size="compact-xs" variant="light" loading={refresh.isPending} aria-label={`Refresh now ${row.name}`} onClick={() => refresh.mutate()}>
      Refresh now
    </Button>
  );
}

const columns: ListColumn<TrustBundle>[] = [
  { key: 'name', header: 'Name', sortable: true },
  {
    key: 'url',
    header: 'Source',
    render: (row) =>
      row.url ? (
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {row.url}
        </Text>
      ) : (
        'From a file'
      ),
  },
  { key: 'domain', header: 'Domain', render: (row) => <DomainCell domain={row.domain} /> },
  { key: 'directions', header: 'Trusted for', width: 190, render: (row) => <DirectionBadges row={row} /> },
  { key: 'anchorCount', header: 'Anchors', width: 90 },
  { key: 'refreshIntervalMinutes', header: 'Refresh', render: (row) => (row.url ? formatInterval(row.refreshIntervalMinutes) : 'Not refreshed') },
  { key: 'lastRefreshedAt', header: 'Last refreshed', render: (row) => formatDateTime(row.lastRefreshedAt) || 'Never' },
  {
    key: 'lastError',
    header: 'Last error',
    render: (row) =>
      row.lastError && (
        <Text size="sm" c="var(--mantine-color-error)">
          {row.lastError}
        </Text>
      ),
  },
];

const settingsOf = (values: Values) => ({
  name: values.name,
  domain: values.domain,
  incoming: values.incoming,
  outgoing: values.outgoing,
  refreshIntervalMinutes: Number(values.refreshIntervalMinutes),
});

/** The trust bundles: PKCS#7 files of anchors, read from a URL (and refreshed) or from a file. */
export function BundlesSection() {
  const queryClient = useQueryClient();
  // A bundle's change changes the anchors list too.
  const refreshAnchors = () => queryClient.invalidateQueries({ queryKey: trustKeys.anchors() });
  return (
    <AdminListArea<TrustBundle, Values>
      embedded
      title="Bundles"
      entityName="bundle"
      queryKey={trustKeys.bundles()}
      columns={columns}
      fetchPage={fetchBundles}
      form={{
        schema: formSchema,
        blank: { name: '', source: 'url', url: '', file: null, domain: '', incoming: true, outgoing: true, refreshIntervalMinutes: REFRESH_INTERVAL_MINUTES.default },
        valuesOf: (row) => ({
          name: row.name,
          source: row.url ? 'url' : 'file',
          url: row.url ?? '',
          file: null,
          domain: row.domain ?? '',
          incoming: row.incoming,
          outgoing: row.outgoing,
          refreshIntervalMinutes: row.refreshIntervalMinutes,
        }),
        fields: (form, row) => {
          const interval = Number(form.values.refreshIntervalMinutes);
          const choices = [...new Set([...INTERVAL_CHOICES, interval])].sort((a, b) => a - b).map((minutes) => ({ value: String(minutes), label: formatInterval(minutes) }));
          return (
            <Stack gap="sm">
              <TextInput label="Name" required maxLength={TRUST_NAME_MAX} data-autofocus {...form.getInputProps('name')} />
              {/* A bundle keeps where it came from; a file bundle's new version is added as another bundle. */}
              <Radio.Group label="Source" {...form.getInputProps('source')}>
                <Group gap="lg" mt={4}>
                  <Radio value="url" label="From a URL" disabled={row !== null} />
                  <Radio value="file" label="From a file" disabled={row !== null} />
                </Group>
              </Radio.Group>
              {form.values.source === 'url' ? (
                <>
                  <TextInput
                    label="URL"
                    description="Read at once, then at each refresh."
                    required
                    maxLength={TRUST_URL_MAX}
                    placeholder="https://bundles.example.org/anchors.p7b"
                    {...form.getInputProps('url')}
                  />
                  <Select
                    label="Refresh"
                    allowDeselect={false}
                    data={choices}
                    value={String(interval)}
                    onChange={(value) => form.setFieldValue('refreshIntervalMinutes', Number(value))}
                  />
                </>
              ) : (
                row === null && (
                  <FileInput
                    label="File"
                    description="A PKCS#7 bundle of certificates, DER or PEM."
                    required
                    accept={BUNDLE_FILE_EXTENSIONS.join(',')}
                    placeholder="Choose a .p7b, .p7c or .pem file"
                    clearable
                    clearButtonProps={{ 'aria-label': 'Clear file' }}
                    {...form.getInputProps('file')}
                  />
                )
              )}
              <ScopeFields form={form} />
            </Stack>
          );
        },
      }}
      create={async (values) => {
        await addBundle(values.source === 'url' ? { ...settingsOf(values), url: values.url ?? '' } : { ...settingsOf(values), file: values.file! });
        await refreshAnchors();
      }}
      update={async (row, values) => {
        await updateBundle(row.id, { ...settingsOf(values), url: row.url === null ? null : values.url });
        await refreshAnchors();
      }}
      remove={async (row) => {
        await deleteBundle(row.id);
        await refreshAnchors();
      }}
      rowName={(row) => row.name}
      rowActions={(row) => row.url && <RefreshButton row={row} />}
      actionsWidth={200}
      deletePrompt={(name) => `Delete ${name} and its anchors? This cannot be undone.`}
      messages={{ saved: text.bundleSaved, deleted: text.bundleDeleted }}
      emptyText="No trust bundles yet."
    />
  );
}
