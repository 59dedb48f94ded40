import { Anchor, Group, List, Popover, Text } from '@mantine/core';
import { MULTI_VALUE_VISIBLE } from '@clinicrelay/contracts/constants.ts';

export interface MultiValueCellProps {
  values: string[];
  /** How many show before "+ N more" (license types' connector names: 5). */
  visible?: number;
}

// A click popover rather than a hover tooltip, so the full list is reachable by keyboard and touch.
export function MultiValueCell({ values, visible = MULTI_VALUE_VISIBLE }: MultiValueCellProps) {
  const shown = values.slice(0, visible);
  const hidden = values.length - shown.length;
  return (
    <Group gap={4} wrap="wrap">
      {/* Long addresses break anywhere rather than widen the table. */}
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {shown.join(', ')}
      </Text>
      {hidden > 0 && (
        <Popover position="bottom" withArrow shadow="md">
          <Popover.Target>
            <Anchor component="button" type="button" size="sm">
              + {hidden} more
            </Anchor>
          </Popover.Target>
          <Popover.Dropdown>
            <List size="sm">
              {values.map((value, index) => (
                <List.Item key={`${index}-${value}`}>{value}</List.Item>
              ))}
            </List>
          </Popover.Dropdown>
        </Popover>
      )}
    </Group>
  );
}
