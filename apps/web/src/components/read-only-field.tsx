import { Text } from '@mantine/core';

/** A label above a value the user reads but does not edit; an empty value shows a dash. */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {/* A long unbroken value (an address, a file name) wraps instead of widening the page. */}
      <Text style={{ overflowWrap: 'anywhere' }}>{value || '—'}</Text>
    </div>
  );
}
