import { useState } from 'react';
import { ActionIcon, Select, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import {
  ROUTING_STEP_TYPE_MAX,
  ROUTING_STEP_TYPE_MIN,
  ROUTING_TEXT_MAX,
  ROUTING_URL_MAX,
  routingConvertFormats,
  routingLocationCodes,
  routingRuleInput,
  routingRuleMessages as text,
  routingSecurityTypes,
  shortAddress,
  shortHieAddress,
  type RoutingRule,
  type RoutingRuleInput,
} from '@clinicrelay/contracts/routing-rules.ts';
import { createRoutingRule, deleteRoutingRule, fetchRoutingRules, routingRuleKeys, updateRoutingRule } from '../../api/routing-rules.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { AdminListArea } from '../admin-list-area.tsx';
import { EndpointsModal } from './endpoints-modal.tsx';
import { SendersModal } from './senders-modal.tsx';
import { Shortened } from './shortened.tsx';

// The form holds what its inputs hold (Select values are strings); the server reads the numbers from them.
interface Values {
  address: string;
  stepType: string | null;
  securityType: string | null;
  customCertificateName: string;
  convertToFormat: string | null;
  locationCode: string | null;
  facilityOid: string;
  keyHieAddress: string;
  displayUrl: string;
}

// The contract's schema checks the form's strings as the server will (§5): its messages show under the fields.
const formSchema = routingRuleInput as unknown as z.ZodType<Values>;

const blank: Values = { address: '', stepType: null, securityType: null, customCertificateName: '', convertToFormat: null, locationCode: null, facilityOid: '', keyHieAddress: '', displayUrl: '' };

const valuesOf = (rule: RoutingRule): Values => ({
  address: rule.address,
  stepType: String(rule.stepType),
  securityType: rule.securityType,
  customCertificateName: rule.customCertificateName ?? '',
  convertToFormat: rule.convertToFormat,
  locationCode: rule.locationCode,
  facilityOid: rule.facilityOid ?? '',
  keyHieAddress: rule.keyHieAddress ?? '',
  displayUrl: rule.displayUrl ?? '',
});

const bodyOf = (values: Values) => values as unknown as RoutingRuleInput;

// §3: step types are numbered 0-12, their names not shown.
const stepTypes = Array.from({ length: ROUTING_STEP_TYPE_MAX - ROUTING_STEP_TYPE_MIN + 1 }, (_, i) => String(ROUTING_STEP_TYPE_MIN + i));

const orDash = (value: string | null) => value || '—';

const columns: ListColumn<RoutingRule>[] = [
  { key: 'address', header: 'Address', sortable: true, render: (row) => <Shortened full={row.address} shown={shortAddress(row.address)} /> },
  { key: 'stepType', header: 'Step type', sortable: true, width: 100 },
  { key: 'convertToFormat', header: 'Convert to', sortable: true, width: 110, render: (row) => orDash(row.convertToFormat) },
  { key: 'locationCode', header: 'Location code', width: 120, render: (row) => orDash(row.locationCode) },
  { key: 'facilityOid', header: 'Facility OID', render: (row) => orDash(row.facilityOid) },
  { key: 'keyHieAddress', header: 'Key HIE address', render: (row) => (row.keyHieAddress ? <Shortened full={row.keyHieAddress} shown={shortHieAddress(row.keyHieAddress)} /> : '—') },
  { key: 'endpoints', header: 'Endpoints', width: 100, render: (row) => row.endpoints.length },
  { key: 'senders', header: 'Organizations', width: 120, render: (row) => (row.senders.length ? row.senders.length : text.none) },
];

function RuleFields({ form }: { form: UseFormReturnType<Values> }) {
  return (
    <Stack gap="sm">
      <TextInput label="Address" required maxLength={ROUTING_TEXT_MAX} data-autofocus {...form.getInputProps('address')} />
      <SimpleGrid cols={2}>
        <Select label="Step type" required placeholder="Choose a step type" data={stepTypes} {...form.getInputProps('stepType')} />
        <Select label="Security type" required placeholder="Choose a security type" data={[...routingSecurityTypes]} {...form.getInputProps('securityType')} />
      </SimpleGrid>
      <TextInput label="Custom certificate name" description="Empty: the default certificate" maxLength={ROUTING_TEXT_MAX} {...form.getInputProps('customCertificateName')} />
      <SimpleGrid cols={2}>
        <Select label="Convert to format" placeholder="No conversion" clearable data={[...routingConvertFormats]} {...form.getInputProps('convertToFormat')} />
        <Select label="Location code" placeholder="None" clearable data={[...routingLocationCodes]} {...form.getInputProps('locationCode')} />
      </SimpleGrid>
      <TextInput label="Facility OID" maxLength={ROUTING_TEXT_MAX} {...form.getInputProps('facilityOid')} />
      <TextInput label="Key HIE address" maxLength={ROUTING_TEXT_MAX} {...form.getInputProps('keyHieAddress')} />
      <TextInput label="Display URL" maxLength={ROUTING_URL_MAX} {...form.getInputProps('displayUrl')} />
      <Text size="xs" c="dimmed">
        MDM and ORU deliver the documents as HL7 v2 over MLLP to the rule’s endpoints; CDA sends them over Direct as C-CDA.
      </Text>
    </Stack>
  );
}

/** /admin/messageroutingrules (back-office-b §2 "Routing rules", issue 29 §3). */
export function RoutingRulesPage() {
  const [endpointsOf, setEndpointsOf] = useState<RoutingRule | null>(null);
  const [sendersOf, setSendersOf] = useState<RoutingRule | null>(null);

  const rowActions = (row: RoutingRule) => (
    <>
      <Tooltip label="Manage endpoints" withArrow>
        <ActionIcon variant="subtle" aria-label={`Manage endpoints of ${row.address}`} onClick={() => setEndpointsOf(row)}>
          <ServerIcon />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Manage sending organizations" withArrow>
        <ActionIcon variant="subtle" aria-label={`Manage sending organizations of ${row.address}`} onClick={() => setSendersOf(row)}>
          <BuildingIcon />
        </ActionIcon>
      </Tooltip>
    </>
  );

  return (
    <>
      <AdminListArea<RoutingRule, Values>
        title="Message routing rules"
        entityName="routing rule"
        queryKey={routingRuleKeys.all}
        columns={columns}
        fetchPage={fetchRoutingRules}
        form={{ schema: formSchema, blank, valuesOf, fields: (form) => <RuleFields form={form} />, liveValidation: { invalidText: text.invalidFields } }}
        create={(values) => createRoutingRule(bodyOf(values))}
        update={(row, values) => updateRoutingRule(row.id, bodyOf(values))}
        remove={(row) => deleteRoutingRule(row.id)}
        rowActions={rowActions}
        actionsWidth={190}
        rowName={(row) => row.address}
        messages={{ saved: text.saved, deleted: text.deleted }}
        listDefaults={{ sortCol: 'address' }}
      />
      <EndpointsModal rule={endpointsOf} onClose={() => setEndpointsOf(null)} />
      <SendersModal rule={sendersOf} onClose={() => setSendersOf(null)} />
    </>
  );
}

function ServerIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <rect x="3" y="4" width="18" height="7" rx="1" />
      <rect x="3" y="13" width="18" height="7" rx="1" />
      <path d="M7 7.5h.01M7 16.5h.01" />
    </svg>
  );
}

function BuildingIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M4 21V5a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1v16" />
      <path d="M15 9h4a1 1 0 0 1 1 1v11" />
      <path d="M3 21h18M8 8h3M8 12h3M8 16h3" />
    </svg>
  );
}
