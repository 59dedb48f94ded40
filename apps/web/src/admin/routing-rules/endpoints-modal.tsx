import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { z } from 'zod';
import { ROUTING_PORT_MAX_LENGTH, ROUTING_TEXT_MAX, routingEndpointFields, routingRuleMessages as text, type RoutingEndpoint, type RoutingRule } from '@clinicrelay/contracts/routing-rules.ts';
import { deleteRoutingEndpoint, saveRoutingEndpoint } from '../../api/routing-rules.ts';
import { RuleChildrenModal } from './rule-children-modal.tsx';

interface Values {
  ipAddress: string;
  port: string;
  oid: string;
}

// §5: ipAddress required, at most 255; port at most 5 characters; oid at most 255 (the contract's messages).
const schema = routingEndpointFields as unknown as z.ZodType<Values>;

/** Manage endpoints: where an MDM or ORU rule delivers over MLLP (ipAddress:port), tried in order. */
export function EndpointsModal({ rule, onClose }: { rule: RoutingRule | null; onClose: () => void }) {
  return (
    <RuleChildrenModal<RoutingEndpoint, Values>
      rule={rule}
      onClose={onClose}
      title="Endpoints"
      entityName="endpoint"
      itemsOf={(r) => r.endpoints}
      itemName={(e) => `${e.ipAddress}:${e.port}`}
      columns={[
        { header: 'IP address', render: (e) => e.ipAddress },
        { header: 'Port', render: (e) => e.port },
        { header: 'OID', render: (e) => e.oid ?? '—' },
      ]}
      form={{
        schema,
        blank: { ipAddress: '', port: '', oid: '' },
        valuesOf: (e) => ({ ipAddress: e.ipAddress, port: String(e.port), oid: e.oid ?? '' }),
        fields: (form) => (
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput label="IP address" description="IP address or host name" required maxLength={ROUTING_TEXT_MAX} data-autofocus style={{ gridColumn: 'span 2' }} {...form.getInputProps('ipAddress')} />
              <TextInput label="Port" description="1 to 65535" required maxLength={ROUTING_PORT_MAX_LENGTH} inputMode="numeric" {...form.getInputProps('port')} />
            </SimpleGrid>
            <TextInput label="OID" maxLength={ROUTING_TEXT_MAX} {...form.getInputProps('oid')} />
          </Stack>
        ),
      }}
      save={(r, values, endpoint) => saveRoutingEndpoint({ ...(endpoint ? { id: endpoint.id } : {}), routingRuleId: r.id, ipAddress: values.ipAddress, port: values.port, oid: values.oid || null })}
      remove={(e) => deleteRoutingEndpoint(e.id)}
      messages={{ saved: text.endpointSaved, deleted: text.endpointDeleted }}
    />
  );
}
