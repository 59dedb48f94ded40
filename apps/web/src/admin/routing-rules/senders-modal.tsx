import { useState } from 'react';
import { Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { SEARCH_DEBOUNCE_MS } from '@clinicrelay/contracts/constants.ts';
import {
  ROUTING_ORGANIZATION_SEARCH_MIN,
  ROUTING_TEXT_MAX,
  routingRuleMessages as text,
  routingSenderFields,
  type RoutingRule,
  type RoutingSender,
} from '@clinicrelay/contracts/routing-rules.ts';
import { deleteRoutingSender, routingRuleKeys, saveRoutingSender, searchSenderOrganizations } from '../../api/routing-rules.ts';
import { RuleChildrenModal } from './rule-children-modal.tsx';

interface Values {
  organizationId: string;
  organizationOid: string;
  facilityType: string;
  facilityTypeCodeId: string;
  facilityTypeCodeScheme: string;
}

// §5: the organization chosen from the typeahead, organizationOid required (the contract's messages).
const schema = routingSenderFields as unknown as z.ZodType<Values>;

interface TypeaheadProps {
  value: string;
  initial: { value: string; label: string } | null;
  onChange: (organizationId: string) => void;
  onBlur: () => void;
  error?: React.ReactNode;
}

// §5: typed (at least 2 characters, 300 ms wait), at most 20 results, and one of them must be chosen.
function OrganizationTypeahead({ value, initial, onChange, onBlur, error }: TypeaheadProps) {
  const [search, setSearch] = useState(initial?.label ?? '');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [chosen, setChosen] = useState(initial);
  const enabled = debounced.length >= ROUTING_ORGANIZATION_SEARCH_MIN && debounced !== chosen?.label;
  const found = useQuery({ queryKey: routingRuleKeys.organizations(debounced), queryFn: ({ signal }) => searchSenderOrganizations(debounced, signal), enabled });
  const options = enabled ? (found.data ?? []) : [];
  const data = chosen && !options.some((o) => o.value === chosen.value) ? [chosen, ...options] : options;
  return (
    <Select
      label="Organization"
      placeholder="Type at least 2 characters"
      required
      searchable
      clearable
      data={data}
      value={value || null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id, option) => {
        setChosen(id ? option : null);
        onChange(id ?? '');
      }}
      onBlur={onBlur}
      filter={({ options: all }) => all}
      nothingFoundMessage={enabled && !found.isFetching ? text.noOrganizations : undefined}
      error={error}
      data-autofocus
    />
  );
}

/** Manage senders: the organizations that may use the rule (none listed: every organization). */
export function SendersModal({ rule, onClose }: { rule: RoutingRule | null; onClose: () => void }) {
  return (
    <RuleChildrenModal<RoutingSender, Values>
      rule={rule}
      onClose={onClose}
      title="Sending organizations"
      entityName="sending organization"
      itemsOf={(r) => r.senders}
      itemName={(s) => s.organizationName}
      columns={[
        { header: 'Organization', render: (s) => s.organizationName },
        { header: 'Organization OID', render: (s) => s.organizationOid },
        { header: 'Facility type', render: (s) => s.facilityType ?? '—' },
        { header: 'Facility type code', render: (s) => [s.facilityTypeCodeId, s.facilityTypeCodeScheme].filter(Boolean).join(' · ') || '—' },
      ]}
      form={{
        schema,
        blank: { organizationId: '', organizationOid: '', facilityType: '', facilityTypeCodeId: '', facilityTypeCodeScheme: '' },
        valuesOf: (s) => ({
          organizationId: s.organizationId,
          organizationOid: s.organizationOid,
          facilityType: s.facilityType ?? '',
          facilityTypeCodeId: s.facilityTypeCodeId ?? '',
          facilityTypeCodeScheme: s.facilityTypeCodeScheme ?? '',
        }),
        fields: (form, sender) => {
          const organization = form.getInputProps('organizationId');
          return (
            <Stack gap="sm">
              <OrganizationTypeahead
                value={form.values.organizationId}
                initial={sender ? { value: sender.organizationId, label: sender.organizationName } : null}
                onChange={(id) => form.setFieldValue('organizationId', id)}
                onBlur={() => form.validateField('organizationId')}
                error={organization.error as React.ReactNode}
              />
              <TextInput label="Organization OID" required maxLength={ROUTING_TEXT_MAX} {...form.getInputProps('organizationOid')} />
              <TextInput label="Facility type" maxLength={ROUTING_TEXT_MAX} {...form.getInputProps('facilityType')} />
              <SimpleGrid cols={2}>
                <TextInput label="Facility type code" maxLength={ROUTING_TEXT_MAX} {...form.getInputProps('facilityTypeCodeId')} />
                <TextInput label="Facility type code scheme" maxLength={ROUTING_TEXT_MAX} {...form.getInputProps('facilityTypeCodeScheme')} />
              </SimpleGrid>
            </Stack>
          );
        },
      }}
      save={(r, values, sender) =>
        saveRoutingSender({
          ...(sender ? { id: sender.id } : {}),
          routingRuleId: r.id,
          organizationId: values.organizationId,
          organizationOid: values.organizationOid,
          facilityType: values.facilityType || null,
          facilityTypeCodeId: values.facilityTypeCodeId || null,
          facilityTypeCodeScheme: values.facilityTypeCodeScheme || null,
        })
      }
      remove={(s) => deleteRoutingSender(s.id)}
      messages={{ saved: text.senderSaved, deleted: text.senderDeleted }}
    />
  );
}
