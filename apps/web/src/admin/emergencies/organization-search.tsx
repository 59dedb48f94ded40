import { useEffect, useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { emergencyMessages as text, ORGANIZATION_SEARCH_DEBOUNCE_MS, ORGANIZATION_SEARCH_MIN_CHARS, type EmergencyOrganization } from '@clinicrelay/contracts/emergencies.ts';
import { emergencyOrganizationKeys, searchOrganizations } from '../../api/emergencies.ts';
import { notifyError } from '../../components/notify.ts';

interface OrganizationSearchProps {
  label: string;
  /** Called with the organization chosen from the list; the box then empties for the next search. */
  onPick: (organization: EmergencyOrganization) => void;
  /** OIDs already chosen: not offered again. */
  exclude?: readonly string[];
  description?: string;
  error?: React.ReactNode;
}

// §5: the organization is typed (at least 2 characters, 300 ms wait) and chosen from the list; typed text alone is
// never taken. Searches the emergency-organization service (POST /api/organization/admin/_search).
export function OrganizationSearch({ label, onPick, exclude = [], description, error }: OrganizationSearchProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), ORGANIZATION_SEARCH_DEBOUNCE_MS);
  const enabled = debounced.length >= ORGANIZATION_SEARCH_MIN_CHARS;
  const found = useQuery({
    queryKey: [...emergencyOrganizationKeys, 'search', debounced],
    queryFn: ({ signal }) => searchOrganizations(debounced, signal),
    enabled,
    retry: false,
  });
  useEffect(() => {
    if (found.isError) notifyError(text.organizationSearchFailed);
  }, [found.isError]);
  const organizations = enabled ? (found.data ?? []).filter((o) => !exclude.includes(o.oid)) : [];
  const searched = enabled && debounced === search.trim() && found.isSuccess && !found.isFetching;
  return (
    <Select
      label={label}
      description={description}
      placeholder="Type at least 2 characters of a name or an OID"
      searchable
      data={organizations.map((o) => ({ value: o.oid, label: `${o.name} (${o.oid})` }))}
      value={null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(oid) => {
        const organization = organizations.find((o) => o.oid === oid);
        if (!organization) return;
        onPick(organization);
        setSearch('');
      }}
      filter={({ options }) => options}
      nothingFoundMessage={searched ? text.noOrganizationsFound : undefined}
      comboboxProps={{ withinPortal: true }}
      error={error}
    />
  );
}
