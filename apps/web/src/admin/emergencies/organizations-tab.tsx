import { Alert, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { OID_MAX } from '@clinicrelay/contracts/carequality.ts';
import { EMERGENCY_ORGANIZATION_NAME_MAX, emergencyMessages as text, emergencyOrganizationInput, type EmergencyOrganization } from '@clinicrelay/contracts/emergencies.ts';
import type { z } from 'zod';
import { deleteEmergencyOrganization, emergencyOrganizationKeys, fetchEmergencyOrganizations, saveEmergencyOrganization } from '../../api/emergencies.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { AdminListArea } from '../admin-list-area.tsx';
import { failedWith } from './failed-with.ts';
import { OrganizationSearch } from './organization-search.tsx';

type Row = EmergencyOrganization & { id: string };
type Values = z.output<typeof emergencyOrganizationInput>;

const columns: ListColumn<Row>[] = [
  { key: 'name', header: 'Name' },
  { key: 'oid', header: 'OID' },
];

function OrganizationFields({ form, row }: { form: UseFormReturnType<Values>; row: Row | null }) {
  return (
    <Stack>
      {Object.keys(form.errors).length > 0 && <Alert color="red">{text.invalidFields}</Alert>}
      {/* A new one is chosen from the search (§5: one must be picked from the list); its display name may then change. */}
      {!row && (
        <OrganizationSearch
          label="Find organization"
          onPick={(organization) => {
            form.setValues(organization);
            form.clearErrors();
          }}
        />
      )}
      <TextInput label="Name" required maxLength={EMERGENCY_ORGANIZATION_NAME_MAX} {...form.getInputProps('name')} />
      <TextInput label="OID" required readOnly maxLength={OID_MAX} description={row ? undefined : 'Filled in from the organization chosen above'} {...form.getInputProps('oid')} />
    </Stack>
  );
}

/** The Organizations tab: the emergency-organization service's list (name, OID), add/update modal and delete. */
export function OrganizationsTab() {
  return (
    <AdminListArea<Row, Values>
      title="Organizations"
      entityName="organization"
      embedded
      queryKey={emergencyOrganizationKeys}
      columns={columns}
      fetchPage={async (state, signal) => {
        const page = await fetchEmergencyOrganizations(state, signal).catch(failedWith(text.organizationsLoadFailed));
        return { items: page.items.map((o) => ({ ...o, id: o.oid })), totalCount: page.totalCount };
      }}
      form={{
        schema: emergencyOrganizationInput,
        blank: { name: '', oid: '' },
        valuesOf: (row) => ({ name: row.name, oid: row.oid }),
        fields: (form, row) => <OrganizationFields form={form} row={row} />,
      }}
      create={saveEmergencyOrganization}
      update={(_row, values) => saveEmergencyOrganization(values)}
      remove={(row) => deleteEmergencyOrganization(row.oid)}
      rowName={(row) => row.name}
      messages={{ saved: text.organizationSaved, deleted: text.organizationDeleted }}
    />
  );
}
