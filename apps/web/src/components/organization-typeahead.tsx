import { useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { SEARCH_DEBOUNCE_MS } from '@clinicrelay/contracts/constants.ts';
import { adminUserKeys, searchOrganizations } from '../api/admin-users.ts';

// §5: the organization is typed (at least 2 characters, 300 ms wait) and chosen from the list.
const TYPEAHEAD_MIN = 2;

interface OrganizationTypeaheadProps {
  value: string;
  onChange: (organizationId: string) => void;
  error?: React.ReactNode;
  /** Organizations already assigned: not offered again. */
  exclude?: readonly string[];
}

export function OrganizationTypeahead({ value, onChange, error, exclude = [] }: OrganizationTypeaheadProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  const candidates = useQuery({
    queryKey: [...adminUserKeys.all, 'organization-options', debounced],
    queryFn: ({ signal }) => searchOrganizations(debounced, signal),
    enabled: debounced.length >= TYPEAHEAD_MIN,
  });
  const found = debounced.length >= TYPEAHEAD_MIN ? (candidates.data ?? []).filter((o) => !exclude.includes(o.value)) : [];
  // The chosen option stays in the data while the text shows its name.
  const options = chosen && !found.some((o) => o.value === chosen.value) ? [chosen, ...found] : found;
  return (
    <Select
      label="Organization"
      placeholder="Type at least 2 characters"
      required
      searchable
      clearable
      data={options}
      value={value || null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id, option) => {
        setChosen(id ? option : null);
        onChange(id ?? '');
      }}
      filter={({ options: all }) => all}
      nothingFoundMessage={debounced.length >= TYPEAHEAD_MIN && !candidates.isFetching ? 'Nothing found' : undefined}
      error={error}
    />
  );
}
