import { Text } from '@mantine/core';

/** A label above a value the user reads but does not edit; an empty value shows a dash. */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text>{value || '—'}</Text>
    </div>
  );
}
