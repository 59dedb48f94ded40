import { Alert, TextInput } from '@mantine/core';
import { regionInput, regionMessages, REGION_FIELD_MAX, type Region } from '@clinicrelay/contracts/regions.ts';
import type { z } from 'zod';
import { createRegion, deleteRegion, fetchRegions, regionKeys, updateRegion } from '../../api/regions.ts';
import { formatDate } from '../../components/format.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { AdminListArea } from '../admin-list-area.tsx';

type Values = z.output<typeof regionInput>;

const columns: ListColumn<Region>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'code', header: 'Code', width: 200 },
  { key: 'modifiedDate', header: 'Modified date', width: 160, render: (row) => formatDate(row.modifiedDate) },
];

/** /admin/healthreferralregions: back-office-b §2 "Regions" (list; create, edit, delete modals). */
export function RegionsPage() {
  return (
    <AdminListArea<Region, Values>
      title="Health referral regions"
      entityName="health referral region"
      queryKey={regionKeys}
      columns={columns}
      fetchPage={fetchRegions}
      form={{
        schema: regionInput,
        blank: { name: '', code: '' },
        valuesOf: (row) => ({ name: row.name, code: row.code }),
        fields: (form) => (
          <>
            {Object.keys(form.errors).length > 0 && (
              <Alert color="red" role="alert">
                {regionMessages.invalidFields}
              </Alert>
            )}
            <TextInput label="Name" required maxLength={REGION_FIELD_MAX} data-autofocus {...form.getInputProps('name')} />
            <TextInput label="Code" required maxLength={REGION_FIELD_MAX} {...form.getInputProps('code')} />
          </>
        ),
      }}
      create={createRegion}
      update={(row, values) => updateRegion(row.id, values)}
      remove={(row) => deleteRegion(row.id)}
      rowName={(row) => row.name}
      messages={{ saved: regionMessages.saved, deleted: regionMessages.deleted }}
    />
  );
}
