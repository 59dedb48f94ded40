import { Badge, Group, Input, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { AnchorScope } from './api.ts';

/** Domain (empty: every domain hosted here) and the directions an anchor or bundle is trusted for. */
export function ScopeFields<Values extends AnchorScope>({ form }: { form: UseFormReturnType<Values> }) {
  const directionError = form.getInputProps('incoming').error as string | undefined;
  return (
    <Stack gap="sm">
      <TextInput
        label="Domain"
        description="The Direct domain hosted here that trusts it; leave empty for every domain."
        placeholder="All domains"
        maxLength={253}
        {...form.getInputProps('domain')}
      />
      <Input.Wrapper label="Trusted for" labelElement="div" error={directionError}>
        <Group gap="lg" mt={4}>
          {/* The error of "neither" shows once, under both switches. */}
          <Switch label="Incoming" {...form.getInputProps('incoming', { type: 'checkbox' })} error={undefined} />
          <Switch label="Outgoing" {...form.getInputProps('outgoing', { type: 'checkbox' })} />
        </Group>
      </Input.Wrapper>
    </Stack>
  );
}

export function DomainCell({ domain }: { domain: string | null }) {
  return domain ?? <Text size="sm" c="dimmed" span>All domains</Text>;
}

// The badges keep their width and wrap under each other in a narrow column rather than cut their words.
export function DirectionBadges({ row }: { row: { incoming: boolean; outgoing: boolean } }) {
  return (
    <Group gap={4}>
      {row.incoming && (
        <Badge variant="light" color="blue" style={{ flex: 'none' }}>
          Incoming
        </Badge>
      )}
      {row.outgoing && (
        <Badge variant="light" color="grape" style={{ flex: 'none' }}>
          Outgoing
        </Badge>
      )}
    </Group>
  );
}
