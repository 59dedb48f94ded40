import type { CSSProperties } from 'react';
import { Text, Timeline } from '@mantine/core';
import { deliveryStageLabels } from '@clinicrelay/contracts/delivery.ts';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { formatDateTime } from '../../components/format.ts';

type TimelineEntry = Message['deliveries'][number]['timeline'][number];

// Mantine spaces items (and stretches the line between them) by spacing-xl: a few pixels keep ten recipients readable.
const compact = { '--mantine-spacing-xl': '4px' } as CSSProperties;
// The bullet sits at the item's top: nudged to the middle of the first line of small text.
const bulletOnFirstLine = { itemBullet: { top: 3 } };

/**
 * A Direct recipient's way over SMTP, oldest first (issue 12 §4): one line per stage with its time and detail.
 * The last stage is where the recipient stands (emphasised); Failed is red with its reason.
 */
export function DeliveryTimeline({ recipient, timeline }: { recipient: string; timeline: TimelineEntry[] }) {
  const current = timeline.length - 1;
  return (
    <Timeline role="list" aria-label={`Delivery timeline of ${recipient}`} active={current} bulletSize={10} lineWidth={2} style={compact} styles={bulletOnFirstLine} mt={4}>
      {timeline.map((entry, index) => {
        const failed = entry.stage === 'Failed';
        const isCurrent = index === current;
        return (
          <Timeline.Item key={`${entry.stage}-${entry.at}`} role="listitem" aria-current={isCurrent ? 'step' : undefined} color={failed ? 'red' : undefined}>
            <Text size="xs" lh={1.3} style={{ overflowWrap: 'anywhere' }}>
              <Text span inherit fw={isCurrent ? 700 : 400} c={failed ? 'red.8' : undefined}>
                {deliveryStageLabels[entry.stage]}
              </Text>
              <Text span inherit c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {` · ${formatDateTime(entry.at)}`}
              </Text>
              {entry.detail && (
                <Text span inherit c={failed ? 'red.8' : 'dimmed'}>
                  {` · ${entry.detail}`}
                </Text>
              )}
            </Text>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
